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
        if self.page_size == 0 || self.next_offset >= self.total {
            return None;
        }
        let offset = self.next_offset;
        let len = self.page_size.min(self.total - offset);
        self.next_offset += len;
        Some(Page { number: offset / self.page_size + 1, offset, len })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let remaining = if self.page_size == 0 {
            0
        } else {
            let items = self.total - self.next_offset;
            items / self.page_size + usize::from(items % self.page_size != 0)
        };
        (remaining, Some(remaining))
    }
}

impl ExactSizeIterator for Pages {}
