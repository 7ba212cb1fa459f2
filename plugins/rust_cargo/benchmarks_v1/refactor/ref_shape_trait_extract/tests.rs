use super::*;

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

#[test]
fn each_type_implements_shape() {
    let c = Circle { r: 1.0 };
    let r = Rect { w: 2.0, h: 3.0 };
    let t = Triangle { a: 3.0, b: 4.0, c: 5.0 };
    assert!(close(c.area(), std::f64::consts::PI));
    assert!(close(r.perimeter(), 10.0));
    assert!(close(t.area(), 6.0));
    assert_eq!((c.name(), r.name(), t.name()), ("circle", "rect", "triangle"));
}

#[test]
fn total_area_over_trait_objects() {
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Rect { w: 2.0, h: 3.0 }), Box::new(Triangle { a: 3.0, b: 4.0, c: 5.0 })];
    assert!(close(total_area(&shapes), 12.0));
    assert!(close(total_area(&[]), 0.0));
}

#[test]
fn largest_picks_first_on_ties() {
    let shapes: Vec<Box<dyn Shape>> = vec![
        Box::new(Rect { w: 1.0, h: 6.0 }),
        Box::new(Triangle { a: 3.0, b: 4.0, c: 5.0 }),
        Box::new(Circle { r: 0.5 }),
    ];
    assert_eq!(largest(&shapes), Some(0));
    assert_eq!(largest(&[]), None);
}

#[test]
fn a_new_type_can_join() {
    struct Square(f64);
    impl Shape for Square {
        fn area(&self) -> f64 {
            self.0 * self.0
        }
        fn perimeter(&self) -> f64 {
            4.0 * self.0
        }
        fn name(&self) -> &'static str {
            "square"
        }
    }
    let shapes: Vec<Box<dyn Shape>> = vec![Box::new(Circle { r: 1.0 }), Box::new(Square(2.0))];
    assert_eq!(largest(&shapes), Some(1));
    assert_eq!(shapes[1].name(), "square");
}
