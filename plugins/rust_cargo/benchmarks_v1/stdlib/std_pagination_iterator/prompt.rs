/// One page of a paginated API response.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Page {
    /// 1-based page number.
    pub number: usize,
    /// Index of the page's first item.
    pub offset: usize,
    /// Number of items on the page.
    pub len: usize,
}

/// Iterator over the pages needed to serve `total` items with `page_size`
/// items per page: pages are numbered from 1, all are full except possibly
/// the last, and there are no pages when `total` or `page_size` is 0. Its
/// `size_hint` is exact, and it implements `ExactSizeIterator`.
#[derive(Debug, Clone)]
pub struct Pages {
    total: usize,
    page_size: usize,
    next_offset: usize,
}

pub fn pages(total: usize, page_size: usize) -> Pages {
    Pages { total, page_size, next_offset: 0 }
}

impl Iterator for Pages {
    type Item = Page;

    fn next(&mut self) -> Option<Page> {
