use crate::policy::Policy;
use crate::rule::{Rule, Violation};
use crate::rules::{MinLength, NoRepeats, RequireClasses};

#[test]
fn min_length_counts_chars() {
    assert_eq!(MinLength(8).check("short"), vec![Violation::TooShort { min: 8, actual: 5 }]);
    assert_eq!(MinLength(4).check("äöüß"), vec![]);
    assert_eq!(MinLength(5).check("äöüß"), vec![Violation::TooShort { min: 5, actual: 4 }]);
}

#[test]
fn required_classes_in_order() {
    let all = RequireClasses { digit: true, uppercase: true, symbol: true };
    assert_eq!(all.check("abc"), vec![Violation::MissingDigit, Violation::MissingUppercase, Violation::MissingSymbol]);
    assert_eq!(all.check("Abc1!"), vec![]);
    let some = RequireClasses { digit: false, uppercase: true, symbol: true };
    assert_eq!(some.check("abc-"), vec![Violation::MissingUppercase]);
}

#[test]
fn repeats_reported_once_per_run() {
    assert_eq!(NoRepeats(2).check("aab"), vec![]);
    assert_eq!(NoRepeats(2).check("aaaab"), vec![Violation::Repeated('a')]);
    assert_eq!(NoRepeats(1).check("xxyxx"), vec![Violation::Repeated('x'), Violation::Repeated('x')]);
    assert_eq!(NoRepeats(2).check(""), vec![]);
}

#[test]
fn policy_collects_all_violations() {
    let policy = Policy::new(vec![
        Box::new(MinLength(10)),
        Box::new(RequireClasses { digit: true, uppercase: false, symbol: true }),
        Box::new(NoRepeats(2)),
    ]);
    assert_eq!(
        policy.check("zzzpass"),
        vec![
            Violation::TooShort { min: 10, actual: 7 },
            Violation::MissingDigit,
            Violation::MissingSymbol,
            Violation::Repeated('z'),
        ]
    );
    assert!(policy.check("c0rrect-horse").is_empty());
}
