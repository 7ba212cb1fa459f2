// Task: a file manager keeps a folder tree in which every folder knows its
// parent and its children. The tree must not keep itself alive: once the last
// outside handle to a folder is dropped, it is freed. The code compiles but
// does not behave as described. Fix it and return the whole corrected file.
use std::cell::RefCell;
use std::rc::Rc;

#[derive(Debug)]
pub struct Folder {
    pub name: String,
    parent: Option<Rc<Folder>>,
    children: RefCell<Vec<Rc<Folder>>>,
}

impl Folder {
    pub fn new_root(name: &str) -> Rc<Folder> {
        Rc::new(Folder { name: name.to_string(), parent: None, children: RefCell::new(Vec::new()) })
    }

    /// Creates a folder called `name` inside `parent` and returns it.
    pub fn add_child(parent: &Rc<Folder>, name: &str) -> Rc<Folder> {
        let child = Rc::new(Folder {
            name: name.to_string(),
            parent: Some(Rc::clone(parent)),
            children: RefCell::new(Vec::new()),
        });
        parent.children.borrow_mut().push(Rc::clone(&child));
        child
    }

    /// The parent folder, if it still exists.
    pub fn parent(&self) -> Option<Rc<Folder>> {
        self.parent.clone()
    }

    /// "/root/dir/sub": the names from the root down to this folder.
    pub fn path(&self) -> String {
        match self.parent() {
            Some(parent) => format!("{}/{}", parent.path(), self.name),
            None => format!("/{}", self.name),
        }
    }

    pub fn child_names(&self) -> Vec<String> {
        self.children.borrow().iter().map(|c| c.name.clone()).collect()
    }
}
