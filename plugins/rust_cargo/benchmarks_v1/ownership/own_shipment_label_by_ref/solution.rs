// Task: a courier's dispatch desk prints manifests of shipments, as the doc
// comments say. The file does not compile. Fix it and return the whole
// corrected file.

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shipment {
    pub id: u32,
    parcels: Vec<u32>,
}

impl Shipment {
    /// `parcels` holds the weight of each parcel in grams.
    pub fn new(id: u32, parcels: Vec<u32>) -> Shipment {
        Shipment { id, parcels }
    }

    pub fn total_grams(&self) -> u32 {
        self.parcels.iter().sum()
    }

    /// "#<id>: <n> parcels, <grams> g".
    pub fn label(&self) -> String {
        format!("#{}: {} parcels, {} g", self.id, self.parcels.len(), self.total_grams())
    }
}

/// One label line per shipment, then "total: <grams> g".
pub fn manifest(shipments: &[Shipment]) -> Vec<String> {
    let mut lines = Vec::new();
    let mut total = 0;
    for shipment in shipments {
        lines.push(shipment.label());
        total += shipment.total_grams();
    }
    lines.push(format!("total: {} g", total));
    lines
}
