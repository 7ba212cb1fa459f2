use super::*;

fn t(title: &str, artist: &str, seconds: u32) -> Track {
    Track { title: title.to_string(), artist: artist.to_string(), seconds }
}

fn sample() -> Playlist {
    Playlist::new(vec![t("Intro", "Mira", 65), t("Tide", "Oslo Drive", 240), t("Outro", "Mira", 420)])
}

#[test]
fn total_length() {
    assert_eq!(sample().total_seconds(), 725);
}

#[test]
fn artists_in_first_appearance_order() {
    assert_eq!(sample().artists(), vec!["Mira", "Oslo Drive"]);
}

#[test]
fn the_playlist_can_be_used_repeatedly() {
    let p = sample();
    assert_eq!(p.describe(), "3 tracks, 12:05");
    assert_eq!(p.total_seconds(), 725);
    assert_eq!(p.artists().len(), 2);
}

#[test]
fn empty_playlist() {
    let p = Playlist::new(Vec::new());
    assert_eq!(p.describe(), "0 tracks, 0:00");
    assert!(p.artists().is_empty());
}
