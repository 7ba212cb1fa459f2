/// Formats an uptime given in seconds as `"3d 04:05:06"`: the whole days
/// followed by `d ` (only when there is at least one day), then hours, minutes
/// and seconds as two digits each.
pub fn format_uptime(total_secs: u64) -> String {
    let days = total_secs / 86_400;
    let hours = total_secs % 86_400 / 3_600;
    let minutes = total_secs % 3_600 / 60;
    let seconds = total_secs % 60;
    let clock = format!("{:02}:{:02}:{:02}", hours, minutes, seconds);
    if days > 0 {
        format!("{}d {}", days, clock)
    } else {
        clock
    }
}
