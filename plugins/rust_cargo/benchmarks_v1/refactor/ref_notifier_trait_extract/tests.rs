use super::*;

#[test]
fn email_delivery() {
    let e = EmailNotifier { address: "ops@example.org".to_string() };
    assert_eq!(e.channel(), "email");
    assert_eq!(e.max_len(), 200);
    assert_eq!(e.deliver("disk full"), "[email] ops@example.org: disk full");
}

#[test]
fn sms_truncates_long_text() {
    let s = SmsNotifier { phone: "+100".to_string() };
    assert_eq!(s.deliver("exactly twenty chars"), "[sms] +100: exactly twenty chars");
    assert_eq!(s.deliver("this message is far too long"), "[sms] +100: this message is f...");
}

#[test]
fn broadcast_over_trait_objects() {
    let ns: Vec<Box<dyn Notifier>> = vec![
        Box::new(SmsNotifier { phone: "555".to_string() }),
        Box::new(EmailNotifier { address: "a@b".to_string() }),
    ];
    assert_eq!(broadcast(&ns, "hi"), vec!["[sms] 555: hi".to_string(), "[email] a@b: hi".to_string()]);
    assert!(broadcast(&[], "hi").is_empty());
}

#[test]
fn new_channels_reuse_the_default_deliver() {
    struct Pager;
    impl Notifier for Pager {
        fn channel(&self) -> &'static str {
            "pager"
        }
        fn max_len(&self) -> usize {
            5
        }
        fn recipient(&self) -> &str {
            "desk"
        }
    }
    assert_eq!(Pager.deliver("wake up"), "[pager] desk: wa...");
}
