use super::*;

#[test]
fn label_and_weight_of_one_shipment() {
    let s = Shipment::new(17, vec![250, 1_200]);
    assert_eq!(s.label(), "#17: 2 parcels, 1450 g");
    assert_eq!(s.total_grams(), 1_450);
    assert_eq!(s.id, 17);
}

#[test]
fn manifest_lists_every_shipment_and_the_total() {
    let shipments = vec![Shipment::new(1, vec![100]), Shipment::new(2, vec![300, 400, 50])];
    assert_eq!(
        manifest(&shipments),
        vec!["#1: 1 parcels, 100 g", "#2: 3 parcels, 750 g", "total: 850 g"]
    );
    assert_eq!(shipments.len(), 2);
}

#[test]
fn empty_manifest() {
    assert_eq!(manifest(&[]), vec!["total: 0 g"]);
    assert_eq!(Shipment::new(3, Vec::new()).label(), "#3: 0 parcels, 0 g");
}
