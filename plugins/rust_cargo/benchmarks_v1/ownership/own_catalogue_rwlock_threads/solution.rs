// Task: `Catalogue` holds shop prices behind a read-write lock and prices
// orders in parallel, as the doc comments say. The file does not compile. Fix
// it and return the whole corrected file.
use std::collections::HashMap;
use std::sync::{Arc, RwLock};
use std::thread;

#[derive(Debug, Default)]
pub struct Catalogue {
    prices: Arc<RwLock<HashMap<String, u64>>>,
}

impl Catalogue {
    pub fn new(items: &[(&str, u64)]) -> Catalogue {
        let prices = items.iter().map(|(name, price)| (name.to_string(), *price)).collect();
        Catalogue { prices: Arc::new(RwLock::new(prices)) }
    }

    pub fn set_price(&self, item: &str, cents: u64) {
        self.prices.write().unwrap().insert(item.to_string(), cents);
    }

    pub fn price(&self, item: &str) -> Option<u64> {
        self.prices.read().unwrap().get(item).copied()
    }

    /// Prices every order on its own thread. Returns the order totals in the
    /// order of `orders`; an order holding an unknown item totals None.
    pub fn price_orders(&self, orders: Vec<Vec<String>>) -> Vec<Option<u64>> {
        let workers: Vec<_> = orders
            .into_iter()
            .map(|order| {
                let prices = Arc::clone(&self.prices);
                thread::spawn(move || {
                    let prices = prices.read().unwrap();
                    order.iter().map(|item| prices.get(item).copied()).sum::<Option<u64>>()
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    }
}
