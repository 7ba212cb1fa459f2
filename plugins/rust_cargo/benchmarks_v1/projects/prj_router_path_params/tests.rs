use crate::router::{Match, Router};

fn router() -> Router {
    let mut r = Router::new();
    r.add("/users", "list_users");
    r.add("/users/me", "current_user");
    r.add("/users/:id", "get_user");
    r.add("/users/:id/posts/:post", "get_post");
    r.add("/static/*", "static_files");
    r
}

fn params(p: &[(&str, &str)]) -> Vec<(String, String)> {
    p.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
}

#[test]
fn literal_routes() {
    assert_eq!(router().route("/users"), Some(Match { handler: "list_users".to_string(), params: vec![] }));
    assert_eq!(router().route("users/"), Some(Match { handler: "list_users".to_string(), params: vec![] }));
}

#[test]
fn first_match_wins() {
    assert_eq!(router().route("/users/me").unwrap().handler, "current_user");
    assert_eq!(router().route("/users/42").unwrap().params, params(&[("id", "42")]));
}

#[test]
fn several_params_in_order() {
    let m = router().route("/users/7/posts/hello-world").unwrap();
    assert_eq!(m.handler, "get_post");
    assert_eq!(m.params, params(&[("id", "7"), ("post", "hello-world")]));
}

#[test]
fn rest_wildcard() {
    assert_eq!(router().route("/static/css/site.css").unwrap().params, params(&[("*", "css/site.css")]));
    assert_eq!(router().route("/static").unwrap().params, params(&[("*", "")]));
}

#[test]
fn no_match() {
    assert_eq!(router().route("/users/7/posts"), None);
    assert_eq!(router().route("/"), None);
    assert_eq!(Router::new().route("/users"), None);
}
