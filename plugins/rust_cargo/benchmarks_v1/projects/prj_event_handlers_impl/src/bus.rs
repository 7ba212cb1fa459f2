use crate::event::{Event, Handler};

/// Delivers every published event to each handler, in subscription order.
pub struct Bus<'a> {
    handlers: Vec<&'a mut dyn Handler>,
}

impl<'a> Bus<'a> {
    pub fn new() -> Bus<'a> {
        Bus { handlers: Vec::new() }
    }

    pub fn subscribe(&mut self, handler: &'a mut dyn Handler) {
        self.handlers.push(handler);
    }

    pub fn publish(&mut self, event: &Event) {
        for h in self.handlers.iter_mut() {
            h.handle(event);
        }
    }
}

impl<'a> Default for Bus<'a> {
    fn default() -> Self {
        Bus::new()
    }
}
