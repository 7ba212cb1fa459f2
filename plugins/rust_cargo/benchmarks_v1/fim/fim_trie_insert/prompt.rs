use std::collections::BTreeMap;

#[derive(Debug, Default)]
struct Node {
    children: BTreeMap<char, Node>,
    terminal: bool,
}

/// A prefix tree of product search terms.
#[derive(Debug, Default)]
pub struct Trie {
    root: Node,
    len: usize,
}

impl Trie {
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds `term`; returns false when it was already stored.
    pub fn insert(&mut self, term: &str) -> bool {
        /*FILL*/
    }

    /// The number of stored terms.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every stored term that starts with `prefix`, in lexicographic order.
    pub fn complete(&self, prefix: &str) -> Vec<String> {
        let mut node = &self.root;
        for c in prefix.chars() {
            match node.children.get(&c) {
                Some(child) => node = child,
                None => return Vec::new(),
            }
        }
        let mut out = Vec::new();
        collect(node, &mut prefix.to_string(), &mut out);
        out
    }
}

fn collect(node: &Node, path: &mut String, out: &mut Vec<String>) {
    if node.terminal {
        out.push(path.clone());
    }
    for (&c, child) in &node.children {
        path.push(c);
        collect(child, path, out);
        path.pop();
    }
}
