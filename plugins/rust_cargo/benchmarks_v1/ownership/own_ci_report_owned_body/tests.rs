use super::*;

#[test]
fn title_body_and_warnings() {
    let lines = ["compiling core", "# nightly build", "", "warning: unused import", "  done  "];
    let r = build_report(&lines);
    assert_eq!(r.title(), "nightly build");
    assert_eq!(r.body(), "compiling core\nwarning: unused import\ndone");
    assert_eq!(r.warnings(), 1);
}

#[test]
fn untitled_report() {
    let r = build_report(&["step 1", "warning: a", "warning: b"]);
    assert_eq!(r.title(), "untitled");
    assert_eq!(r.warnings(), 2);
}

#[test]
fn only_the_first_title_line_is_the_title() {
    let r = build_report(&["# one", "# two"]);
    assert_eq!(r.title(), "one");
    assert_eq!(r.body(), "# two");
}

#[test]
fn title_outlives_the_report() {
    let owned = vec![String::from("# release"), String::from("ok")];
    let title = {
        let refs: Vec<&str> = owned.iter().map(|s| s.as_str()).collect();
        let report = build_report(&refs);
        assert_eq!(report.body(), "ok");
        report.title()
    };
    assert_eq!(title, "release");
    assert_eq!(build_report(&[]).body(), "");
}
