// Task: `EventBus` dispatches application events to subscribed handlers, which
// may keep state of their own, as the doc comments say. The file does not
// compile. Fix it and return the whole corrected file.

#[derive(Default)]
pub struct EventBus {
    handlers: Vec<(String, Box<dyn FnMut(&str)>)>,
}

impl EventBus {
    pub fn new() -> EventBus {
        EventBus::default()
    }

    /// Subscribes `handler` to `topic`.
    pub fn subscribe<F: FnMut(&str) + 'static>(&mut self, topic: &str, handler: F) {
        self.handlers.push((topic.to_string(), Box::new(handler)));
    }

    /// Calls every handler of `topic` with `payload`, in subscription order,
    /// and returns how many were called.
    pub fn publish(&self, topic: &str, payload: &str) -> usize {
        let mut called = 0;
        for (t, handler) in self.handlers.iter() {
            if t == topic {
                handler(payload);
                called += 1;
            }
        }
        called
    }
}
