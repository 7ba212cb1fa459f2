// Task: the Channel enum makes adding a channel painful. Extract a trait
//   pub trait Notifier {
//       fn channel(&self) -> &'static str;
//       fn max_len(&self) -> usize;
//       fn deliver(&self, message: &str) -> String { ... }   // default method
//   }
// where `deliver` keeps today's formatting ("[channel] recipient: text", text
// truncated to max_len characters with "..." replacing the last three when
// it is too long), and needs one more required method
// `fn recipient(&self) -> &str`. Implement it for `EmailNotifier { address }`
// ("email", 200) and `SmsNotifier { phone }` ("sms", 20), remove `Channel`,
// and make `broadcast` take `&[Box<dyn Notifier>]`.

pub enum Channel {
    Email { address: String },
    Sms { phone: String },
}

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max - 3).collect();
    format!("{}...", kept)
}

pub fn deliver(channel: &Channel, message: &str) -> String {
    match channel {
        Channel::Email { address } => format!("[email] {}: {}", address, truncate(message, 200)),
        Channel::Sms { phone } => format!("[sms] {}: {}", phone, truncate(message, 20)),
    }
}

pub fn broadcast(channels: &[Channel], message: &str) -> Vec<String> {
    let mut out = Vec::new();
    for c in channels {
        out.push(deliver(c, message));
    }
    out
}
