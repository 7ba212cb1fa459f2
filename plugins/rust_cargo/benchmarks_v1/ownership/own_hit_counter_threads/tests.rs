use super::*;

fn batch(pages: &[&str]) -> Vec<String> {
    pages.iter().map(|p| p.to_string()).collect()
}

#[test]
fn counts_across_batches() {
    let out = count_hits(vec![batch(&["/", "/about", "/"]), batch(&["/shop", "/"]), batch(&["/about"])]);
    assert_eq!(
        out,
        vec![("/".to_string(), 3), ("/about".to_string(), 2), ("/shop".to_string(), 1)]
    );
}

#[test]
fn many_threads_lose_no_updates() {
    let batches: Vec<Vec<String>> = (0..16).map(|_| batch(&["/x"; 500])).collect();
    assert_eq!(count_hits(batches), vec![("/x".to_string(), 8_000)]);
}

#[test]
fn empty_input() {
    assert!(count_hits(Vec::new()).is_empty());
    assert!(count_hits(vec![Vec::new(), Vec::new()]).is_empty());
}
