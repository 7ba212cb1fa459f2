// Task: `Playlist` summarises the tracks of a music playlist, as the doc
// comments say. The file does not compile. Fix it and return the whole
// corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Track {
    pub title: String,
    pub artist: String,
    pub seconds: u32,
}

#[derive(Debug, Default)]
pub struct Playlist {
    tracks: Vec<Track>,
}

impl Playlist {
    pub fn new(tracks: Vec<Track>) -> Playlist {
        Playlist { tracks }
    }

    /// The total length in seconds.
    pub fn total_seconds(&self) -> u32 {
        let mut total = 0;
        for track in &self.tracks {
            total += track.seconds;
        }
        total
    }

    /// The distinct artists, in order of first appearance.
    pub fn artists(&self) -> Vec<String> {
        let mut seen: Vec<String> = Vec::new();
        for track in self.tracks.iter() {
            let artist = &track.artist;
            if !seen.contains(artist) {
                seen.push(artist.clone());
            }
        }
        seen
    }

    /// For example "3 tracks, 12:05" (minutes:seconds).
    pub fn describe(&self) -> String {
        let total = self.total_seconds();
        format!("{} tracks, {}:{:02}", self.tracks.len(), total / 60, total % 60)
    }
}
