/// A rule of the password policy, in the order the rules are checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Violation {
    TooShort,
    NoDigit,
    NoUppercase,
    NoLowercase,
    ContainsUsername,
    RepeatedChar,
}

/// Checks a new password and lists every violated rule, in the order of the
/// variants above: at least 10 characters (counted as `char`s); at least one
/// ASCII digit; at least one upper-case and one lower-case letter (any
/// alphabet); the password must not contain the username, compared
/// case-insensitively (an empty username never matches); and no character
/// may appear three or more times in a row.
pub fn check_password(password: &str, username: &str) -> Vec<Violation> {
    let mut violations = Vec::new();
    if password.chars().count() < 10 {
        violations.push(Violation::TooShort);
    }
    if !password.chars().any(|c| c.is_ascii_digit()) {
        violations.push(Violation::NoDigit);
    }
    if !password.chars().any(char::is_uppercase) {
        violations.push(Violation::NoUppercase);
    }
    if !password.chars().any(char::is_lowercase) {
        violations.push(Violation::NoLowercase);
    }
    if !username.is_empty() && password.to_lowercase().contains(&username.to_lowercase()) {
        violations.push(Violation::ContainsUsername);
    }
    let chars: Vec<char> = password.chars().collect();
    if chars.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) {
        violations.push(Violation::RepeatedChar);
    }
    violations
}
