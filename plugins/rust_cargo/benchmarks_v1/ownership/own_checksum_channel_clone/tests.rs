use super::*;

#[test]
fn checksum_of_known_bytes() {
    assert_eq!(checksum(b""), 0);
    assert_eq!(checksum(b"a"), 97);
    assert_eq!(checksum(b"ab"), (97 << 5) ^ 98);
}

#[test]
fn results_are_sorted_by_name() {
    let files = vec![
        ("zeta.bin".to_string(), b"zz".to_vec()),
        ("alpha.txt".to_string(), b"hello".to_vec()),
        ("mid.csv".to_string(), Vec::new()),
    ];
    assert_eq!(
        checksums(files),
        vec![
            ("alpha.txt".to_string(), checksum(b"hello")),
            ("mid.csv".to_string(), 0),
            ("zeta.bin".to_string(), checksum(b"zz")),
        ]
    );
}

#[test]
fn many_files() {
    let files: Vec<(String, Vec<u8>)> = (0..24u8).map(|i| (format!("f{:02}", i), vec![i; 100])).collect();
    let out = checksums(files);
    assert_eq!(out.len(), 24);
    assert_eq!(out[7], ("f07".to_string(), checksum(&[7; 100])));
}

#[test]
fn no_files() {
    assert!(checksums(Vec::new()).is_empty());
}
