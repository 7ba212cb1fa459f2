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

fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let kept: String = text.chars().take(max - 3).collect();
    format!("{}...", kept)
}

pub trait Notifier {
    fn channel(&self) -> &'static str;
    fn max_len(&self) -> usize;
    fn recipient(&self) -> &str;

    fn deliver(&self, message: &str) -> String {
        format!("[{}] {}: {}", self.channel(), self.recipient(), truncate(message, self.max_len()))
    }
}

pub struct EmailNotifier {
    pub address: String,
}

pub struct SmsNotifier {
    pub phone: String,
}

impl Notifier for EmailNotifier {
    fn channel(&self) -> &'static str {
        "email"
    }

    fn max_len(&self) -> usize {
        200
    }

    fn recipient(&self) -> &str {
        &self.address
    }
}

impl Notifier for SmsNotifier {
    fn channel(&self) -> &'static str {
        "sms"
    }

    fn max_len(&self) -> usize {
        20
    }

    fn recipient(&self) -> &str {
        &self.phone
    }
}

pub fn broadcast(notifiers: &[Box<dyn Notifier>], message: &str) -> Vec<String> {
    notifiers.iter().map(|n| n.deliver(message)).collect()
}
