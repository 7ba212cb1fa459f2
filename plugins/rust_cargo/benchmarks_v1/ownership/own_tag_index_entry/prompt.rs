// Task: `TagIndex` maps tags to the documents carrying them, as the doc
// comments say. The file does not compile. Fix it and return the whole
// corrected file.
use std::collections::HashMap;

#[derive(Debug, Default)]
pub struct TagIndex {
    buckets: HashMap<String, Vec<u32>>,
}

impl TagIndex {
    pub fn new() -> TagIndex {
        TagIndex::default()
    }

    /// The bucket of `tag`, created empty if it does not exist yet.
    fn bucket(&mut self, tag: &str) -> &mut Vec<u32> {
        if let Some(bucket) = self.buckets.get_mut(tag) {
            return bucket;
        }
        self.buckets.insert(tag.to_string(), Vec::new());
        self.buckets.get_mut(tag).unwrap()
    }

    /// Records that document `doc` carries every tag of `tags`. A document is
    /// listed at most once per tag.
    pub fn tag(&mut self, doc: u32, tags: &[&str]) {
        for tag in tags {
            let bucket = self.bucket(tag);
            if !bucket.contains(&doc) {
                bucket.push(doc);
            }
        }
    }

    /// The documents carrying `tag`, in the order they were first tagged.
    pub fn docs(&self, tag: &str) -> &[u32] {
        self.buckets.get(tag).map(|b| b.as_slice()).unwrap_or(&[])
    }

    /// The tags of `doc`, sorted.
    pub fn tags_of(&self, doc: u32) -> Vec<&str> {
        let mut tags: Vec<&str> =
            self.buckets.iter().filter(|(_, docs)| docs.contains(&doc)).map(|(tag, _)| tag.as_str()).collect();
        tags.sort_unstable();
        tags
    }
}
