use super::*;

#[test]
fn simple_words() {
    assert_eq!(camel_to_snake("Invoice"), "invoice");
    assert_eq!(camel_to_snake("LineItem"), "line_item");
    assert_eq!(camel_to_snake("lineItemTotal"), "line_item_total");
    assert_eq!(camel_to_snake(""), "");
}

#[test]
fn acronyms() {
    assert_eq!(camel_to_snake("HTTPServerError"), "http_server_error");
    assert_eq!(camel_to_snake("parseJSON"), "parse_json");
    assert_eq!(camel_to_snake("XMLHttpRequest"), "xml_http_request");
    assert_eq!(camel_to_snake("ID"), "id");
}

#[test]
fn digits() {
    assert_eq!(camel_to_snake("Utf8Decoder"), "utf8_decoder");
    assert_eq!(camel_to_snake("Vec3"), "vec3");
    assert_eq!(camel_to_snake("S3Bucket"), "s3_bucket");
}

#[test]
fn single_letters() {
    assert_eq!(camel_to_snake("A"), "a");
    assert_eq!(camel_to_snake("aB"), "a_b");
    assert_eq!(camel_to_snake("ABc"), "a_bc");
}

#[test]
fn already_snake_like() {
    assert_eq!(camel_to_snake("already"), "already");
}
