use super::*;

#[test]
fn no_bytes_no_pixels() {
    assert_eq!(pack_pixels(&[]), Ok(vec![]));
}

#[test]
fn packs_in_rgb_order() {
    assert_eq!(pack_pixels(&[0xFF, 0x80, 0x01, 0, 0, 0, 1, 2, 3]), Ok(vec![0xFF8001, 0, 0x010203]));
}

#[test]
fn white_pixel() {
    assert_eq!(pack_pixels(&[255, 255, 255]), Ok(vec![0xFFFFFF]));
}

#[test]
fn leftover_bytes_are_reported() {
    assert_eq!(pack_pixels(&[1]), Err(1));
    assert_eq!(pack_pixels(&[1, 2, 3, 4, 5]), Err(2));
    assert_eq!(pack_pixels(&[1, 2, 3, 4]), Err(1));
}
