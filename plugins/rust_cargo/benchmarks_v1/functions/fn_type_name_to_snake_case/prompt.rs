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
