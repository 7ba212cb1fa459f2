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
    /*FILL*/
}
