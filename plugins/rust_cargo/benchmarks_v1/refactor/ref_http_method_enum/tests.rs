use super::*;

#[test]
fn parses_exact_names() {
    assert_eq!("GET".parse::<Method>(), Ok(Method::Get));
    assert_eq!("DELETE".parse::<Method>(), Ok(Method::Delete));
    assert_eq!("HEAD".parse::<Method>(), Ok(Method::Head));
}

#[test]
fn rejects_other_spellings() {
    assert_eq!("get".parse::<Method>(), Err(()));
    assert_eq!("PATCH".parse::<Method>(), Err(()));
    assert_eq!("".parse::<Method>(), Err(()));
}

#[test]
fn only_safe_methods_are_cacheable() {
    assert!(Method::Get.is_cacheable());
    assert!(Method::Head.is_cacheable());
    assert!(!Method::Post.is_cacheable());
    assert!(!Method::Put.is_cacheable());
    assert!(!Method::Delete.is_cacheable());
}

#[test]
fn router_matches_on_method_and_path() {
    let mut r = Router::new();
    r.add(Method::Get, "/users", "list_users");
    r.add(Method::Post, "/users", "create_user");
    r.add(Method::Get, "/users", "shadowed");
    assert_eq!(r.find(Method::Get, "/users"), Some("list_users"));
    assert_eq!(r.find(Method::Post, "/users"), Some("create_user"));
    assert_eq!(r.find(Method::Delete, "/users"), None);
    assert_eq!(r.find(Method::Get, "/user"), None);
}
