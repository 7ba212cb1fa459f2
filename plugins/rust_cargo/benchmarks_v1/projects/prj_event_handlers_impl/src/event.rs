#[derive(Debug, Clone, PartialEq)]
pub enum Event {
    UserCreated { id: u32, name: String },
    UserDeleted { id: u32 },
    LoginFailed { id: u32, attempts: u32 },
}

impl Event {
    pub fn kind(&self) -> &'static str {
        match self {
            Event::UserCreated { .. } => "user_created",
            Event::UserDeleted { .. } => "user_deleted",
            Event::LoginFailed { .. } => "login_failed",
        }
    }
}

pub trait Handler {
    /// Called once per published event.
    fn handle(&mut self, event: &Event);
}
