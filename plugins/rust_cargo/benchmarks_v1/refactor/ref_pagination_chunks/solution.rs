// Task: the pagination helpers copy everything and walk indices by hand.
// Rewrite them on slices:
//   pub fn pages<T>(items: &[T], page_size: usize) -> impl Iterator<Item = &[T]> + '_
//   pub fn page<T>(items: &[T], page_size: usize, n: usize) -> Option<&[T]>
// built on `chunks`, generic over T (no Clone bound), with n counted from 0.
// `page_count` must stay as it is. page_size is never 0.

pub fn pages<T>(items: &[T], page_size: usize) -> impl Iterator<Item = &[T]> + '_ {
    items.chunks(page_size)
}

pub fn page<T>(items: &[T], page_size: usize, n: usize) -> Option<&[T]> {
    items.chunks(page_size).nth(n)
}

pub fn page_count(len: usize, page_size: usize) -> usize {
    (len + page_size - 1) / page_size
}
