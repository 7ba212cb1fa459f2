// Task: the pagination helpers copy everything and walk indices by hand.
// Rewrite them on slices:
//   pub fn pages<T>(items: &[T], page_size: usize) -> impl Iterator<Item = &[T]> + '_
//   pub fn page<T>(items: &[T], page_size: usize, n: usize) -> Option<&[T]>
// built on `chunks`, generic over T (no Clone bound), with n counted from 0.
// `page_count` must stay as it is. page_size is never 0.

pub fn pages(items: &Vec<String>, page_size: usize) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < items.len() {
        let mut end = start + page_size;
        if end > items.len() {
            end = items.len();
        }
        let mut page = Vec::new();
        for i in start..end {
            page.push(items[i].clone());
        }
        out.push(page);
        start = end;
    }
    out
}

pub fn page(items: &Vec<String>, page_size: usize, n: usize) -> Option<Vec<String>> {
    let all = pages(items, page_size);
    if n < all.len() {
        Some(all[n].clone())
    } else {
        None
    }
}

pub fn page_count(len: usize, page_size: usize) -> usize {
    (len + page_size - 1) / page_size
}
