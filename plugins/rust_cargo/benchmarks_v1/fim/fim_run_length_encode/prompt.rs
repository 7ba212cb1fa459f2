/// Run-length encodes `text`: each maximal run of one character becomes the
/// pair (character, run length), in order.
pub fn run_length_encode(text: &str) -> Vec<(char, usize)> {
    let mut runs: Vec<(char, usize)> = Vec::new();
    for c in text.chars() {
        /*FILL*/
    }
    runs
}
