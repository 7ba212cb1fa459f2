/// Converts a `CamelCase` or `camelCase` identifier to `snake_case`, as a code
/// generator does when it derives file names from type names.
///
/// An underscore is inserted before an uppercase letter that follows a
/// lowercase letter or a digit, and before the last uppercase letter of a run
/// of capitals when a lowercase letter follows it; so `"HTTPServerError"`
/// becomes `"http_server_error"` and `"parseJSON"` becomes `"parse_json"`.
/// All letters are lowercased. The input consists of ASCII letters and
/// digits.
pub fn camel_to_snake(name: &str) -> String {
    let chars: Vec<char> = name.chars().collect();
    let mut snake = String::with_capacity(name.len() + 4);
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_uppercase() && i > 0 {
            let prev = chars[i - 1];
            let next_is_lower = chars.get(i + 1).map_or(false, |n| n.is_ascii_lowercase());
            if prev.is_ascii_lowercase() || prev.is_ascii_digit() || (prev.is_ascii_uppercase() && next_is_lower) {
                snake.push('_');
            }
        }
        snake.push(c.to_ascii_lowercase());
    }
    snake
}
