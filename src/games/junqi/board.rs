//! The Siguo Junqi board: 129 stations on a centre-origin 17x17 frame
//! (`docs/rules/junqi.md` §2), and every table the move generator reads, built once.
//!
//! Stations are indexed densely, `0..129`: seat `s` (S=0, E=1, N=2, W=3) owns stations
//! `30*s .. 30*s+30` in slot order (`slot = 5*row + col`, row 0 the front row), and the
//! nine centre stations are `120..129`, row-major by y then x (`120` = (-2,-2), `124` =
//! (0,0), `128` = (2,2)). The station of a seat's slot is thus `30*seat + slot`, which is
//! what the lineup notation and the setup rules use. The frame square of (x, y) is
//! `(y+8)*17 + (x+8)`; [`Tables::at`] maps it back to a station.

use once_cell::sync::Lazy;

/// Number of stations.
pub const STATIONS: usize = 129;
/// First centre station; stations below it belong to a seat.
pub const CENTRE: usize = 120;
/// Seat names in seat order: the turn order S → E → N → W.
pub const SEAT_NAMES: [char; 4] = ['S', 'E', 'N', 'W'];
/// Slots of a seat's five camps (行营).
pub const CAMP_SLOTS: [usize; 5] = [6, 8, 12, 16, 18];
/// Slots of a seat's two HQs (大本营).
pub const HQ_SLOTS: [usize; 2] = [26, 28];
/// "No station" in the byte-sized tables.
pub const NO_STATION: u8 = u8::MAX;

/// What a station is; rail and road differ in riding, camps and HQs in entering rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// On the railway: rides start, pass and end here.
    Rail,
    /// An ordinary road station: steps only.
    Road,
    /// 行营: an occupant can be neither attacked nor displaced.
    Camp,
    /// 大本营: whatever stands here never moves again.
    Hq,
}

/// The coordinates of a seat's slot (`docs/rules/junqi.md` §2.2).
pub const fn slot_xy(seat: usize, slot: usize) -> (i32, i32) {
    let (row, col) = ((slot / 5) as i32, (slot % 5) as i32);
    match seat {
        0 => (col - 2, 3 + row),
        1 => (3 + row, 2 - col),
        2 => (2 - col, -3 - row),
        _ => (-3 - row, col - 2),
    }
}

/// The kind of a seat's slot.
pub fn slot_kind(slot: usize) -> Kind {
    let (row, col) = (slot / 5, slot % 5);
    if CAMP_SLOTS.contains(&slot) {
        Kind::Camp
    } else if HQ_SLOTS.contains(&slot) {
        Kind::Hq
    } else if row <= 4 && (row == 0 || row == 4 || col == 0 || col == 4) {
        Kind::Rail
    } else {
        Kind::Road
    }
}

/// Every precomputed table; see the module docs for the station numbering.
pub struct Tables {
    /// Coordinates of each station.
    pub xy: [(i8, i8); STATIONS],
    /// Kind of each station.
    pub kind: [Kind; STATIONS],
    /// Station at frame square `(y+8)*17 + (x+8)`, or [`NO_STATION`].
    pub at: [u8; 289],
    /// Rail neighbours (at most 4), padded with [`NO_STATION`].
    pub rail: [[u8; 4]; STATIONS],
    /// One-step neighbours (at most 8: a camp's), padded with [`NO_STATION`].
    pub step: [[u8; 8]; STATIONS],
    /// Rays of the non-engineer rail ride: `ray_index[s]..ray_index[s+1]` indexes
    /// `rays`, whose entries are `(start, len)` ranges of `ray_cells`: the stations met in
    /// order, leaving `s` along one of the 14 straight lines or 4 L-curves. Rays that are a
    /// prefix of another ray from the same station are dropped.
    pub ray_index: [u16; STATIONS + 1],
    pub rays: Vec<(u16, u8)>,
    pub ray_cells: Vec<u8>,
    /// Per entry of `rays`, whether its first station is also a step neighbour of the
    /// station it leaves (not so across the centre and along the arcs).
    pub ray_starts_with_step: Vec<bool>,
    /// The 14 straight lines and the 4 L-curves, as station lists (for tests and docs).
    pub lines: Vec<Vec<u8>>,
}

impl Tables {
    /// Station at (x, y), if any.
    pub fn station(&self, x: i32, y: i32) -> Option<usize> {
        if !(-8..=8).contains(&x) || !(-8..=8).contains(&y) {
            return None;
        }
        let s = self.at[((y + 8) * 17 + (x + 8)) as usize];
        (s != NO_STATION).then_some(usize::from(s))
    }

    /// The rays leaving station `s`, each as the stations met in order.
    #[inline]
    pub fn rays_from(&self, s: usize) -> impl Iterator<Item = &[u8]> {
        self.rays_and_steps_from(s).map(|(ray, _)| ray)
    }

    /// The rays leaving station `s`, each with whether its first station is a step away.
    #[inline]
    pub fn rays_and_steps_from(&self, s: usize) -> impl Iterator<Item = (&[u8], bool)> {
        let range = usize::from(self.ray_index[s])..usize::from(self.ray_index[s + 1]);
        self.rays[range.clone()]
            .iter()
            .zip(&self.ray_starts_with_step[range])
            .map(|(&(start, len), &step)| {
                let start = usize::from(start);
                (&self.ray_cells[start..start + usize::from(len)], step)
            })
    }
}

/// The board tables, built on first use.
pub static TABLES: Lazy<Tables> = Lazy::new(build);

/// Whether station `s` is on the railway.
#[inline]
pub fn is_rail(s: usize) -> bool {
    TABLES.kind[s] == Kind::Rail
}

/// The seat owning station `s`, or `None` for the centre.
pub fn seat_of_station(s: usize) -> Option<usize> {
    (s < CENTRE).then_some(s / 30)
}

/// The algebraic name of a station: file `a`..`q` for x = -8..8, rank `9 - y`.
pub fn name(s: usize) -> String {
    let (x, y) = TABLES.xy[s];
    format!("{}{}", char::from(b'a' + (x + 8) as u8), 9 - i32::from(y))
}

/// The station with an algebraic name like `i9` or `a10`.
pub fn parse_name(text: &str) -> Option<usize> {
    let mut chars = text.chars();
    let file = chars.next()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = chars.as_str();
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    if digits.starts_with('0') {
        return None;
    }
    let rank: i32 = digits.parse().ok()?;
    let x = i32::from(file as u8 - b'a') - 8;
    TABLES.station(x, 9 - rank)
}

/// The 14 straight rail lines and 4 L-curves, as coordinate lists.
fn line_coords() -> Vec<Vec<(i32, i32)>> {
    let mut lines = Vec::new();
    // Long lines x = ±2 and y = ±2: five seat stations, three centre ones, five more.
    let long: Vec<i32> = (-7..=-3).chain([-2, 0, 2]).chain(3..=7).collect();
    for c in [-2, 2] {
        lines.push(long.iter().map(|&y| (c, y)).collect());
        lines.push(long.iter().map(|&x| (x, c)).collect());
    }
    // x = 0 and y = 0: the two front-row middles and the centre column / row.
    let short = [-3, -2, 0, 2, 3];
    lines.push(short.iter().map(|&y| (0, y)).collect());
    lines.push(short.iter().map(|&x| (x, 0)).collect());
    // Each seat's front and fourth rows.
    for seat in 0..4 {
        for row in [0, 4] {
            lines.push((0..5).map(|col| slot_xy(seat, 5 * row + col)).collect());
        }
    }
    // L-curves: a seat's col-4 rail line (back to front), the arc, the next seat's col 0.
    for seat in 0..4 {
        let next = (seat + 1) % 4;
        let mut curve: Vec<(i32, i32)> =
            (0..5).rev().map(|row| slot_xy(seat, 5 * row + 4)).collect();
        curve.extend((0..5).map(|row| slot_xy(next, 5 * row)));
        lines.push(curve);
    }
    lines
}

fn build() -> Tables {
    let mut xy = [(0i8, 0i8); STATIONS];
    let mut kind = [Kind::Rail; STATIONS];
    let mut at = [NO_STATION; 289];
    for seat in 0..4 {
        for slot in 0..30 {
            let (x, y) = slot_xy(seat, slot);
            let s = 30 * seat + slot;
            xy[s] = (x as i8, y as i8);
            kind[s] = slot_kind(slot);
        }
    }
    for i in 0..9 {
        let (x, y) = (2 * (i as i32 % 3) - 2, 2 * (i as i32 / 3) - 2);
        xy[CENTRE + i] = (x as i8, y as i8);
    }
    for (s, &(x, y)) in xy.iter().enumerate() {
        at[((i32::from(y) + 8) * 17 + (i32::from(x) + 8)) as usize] = s as u8;
    }
    let station = |(x, y): (i32, i32)| usize::from(at[((y + 8) * 17 + (x + 8)) as usize]);

    let lines: Vec<Vec<u8>> = line_coords()
        .into_iter()
        .map(|line| line.into_iter().map(|c| station(c) as u8).collect())
        .collect();

    // Rail edges: consecutive stations of the 14 straight lines, plus the 4 arcs (the
    // middle pair of each curve).
    let mut rail = [[NO_STATION; 4]; STATIONS];
    let mut add_rail = |a: u8, b: u8| {
        for (u, v) in [(a, b), (b, a)] {
            let slots = &mut rail[usize::from(u)];
            if !slots.contains(&v) {
                let free = slots
                    .iter()
                    .position(|&n| n == NO_STATION)
                    .expect("rail degree <= 4");
                slots[free] = v;
            }
        }
    };
    for line in &lines[..14] {
        for pair in line.windows(2) {
            add_rail(pair[0], pair[1]);
        }
    }
    for curve in &lines[14..] {
        add_rail(curve[4], curve[5]);
    }

    // Step edges: orthogonal neighbours, or diagonal ones with a camp at one end; two
    // different seats' stations are never joined by a step.
    let mut step = [[NO_STATION; 8]; STATIONS];
    for a in 0..STATIONS {
        let mut n = 0;
        for b in 0..STATIONS {
            let (dx, dy) = (xy[a].0 - xy[b].0, xy[a].1 - xy[b].1);
            if a == b || dx.abs() > 1 || dy.abs() > 1 {
                continue;
            }
            let diagonal = dx != 0 && dy != 0;
            if diagonal && kind[a] != Kind::Camp && kind[b] != Kind::Camp {
                continue;
            }
            if let (Some(sa), Some(sb)) = (seat_of_station(a), seat_of_station(b))
                && sa != sb
            {
                continue;
            }
            step[a][n] = b as u8;
            n += 1;
        }
    }

    // Rays: from every station of every line, both ways; drop a ray that is a prefix of
    // another ray from the same station (riding it adds nothing).
    let mut per_station: Vec<Vec<Vec<u8>>> = vec![Vec::new(); STATIONS];
    for line in &lines {
        for (i, &s) in line.iter().enumerate() {
            per_station[usize::from(s)].push(line[i + 1..].to_vec());
            per_station[usize::from(s)].push(line[..i].iter().rev().copied().collect());
        }
    }
    let mut ray_index = [0u16; STATIONS + 1];
    let mut rays = Vec::new();
    let mut ray_cells = Vec::new();
    let mut ray_starts_with_step = Vec::new();
    for (s, candidates) in per_station.iter().enumerate() {
        ray_index[s] = rays.len() as u16;
        for (i, ray) in candidates.iter().enumerate() {
            let covered = candidates
                .iter()
                .enumerate()
                .any(|(j, other)| other.starts_with(ray) && (other.len() > ray.len() || j < i));
            if ray.is_empty() || covered {
                continue;
            }
            rays.push((ray_cells.len() as u16, ray.len() as u8));
            ray_starts_with_step.push(step[s].contains(&ray[0]));
            ray_cells.extend_from_slice(ray);
        }
    }
    ray_index[STATIONS] = rays.len() as u16;

    Tables {
        xy,
        kind,
        at,
        rail,
        step,
        ray_index,
        rays,
        ray_cells,
        ray_starts_with_step,
        lines,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;
    use std::collections::BTreeSet;

    /// The board listing kept with the tests (`docs/rules/junqi.md` §2 describes it).
    fn json() -> Value {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/junqi_board.json");
        let text = std::fs::read_to_string(path).expect("tests/data/junqi_board.json");
        serde_json::from_str(&text).expect("tests/data/junqi_board.json is valid JSON")
    }

    /// The array `board[key]`.
    fn list<'a>(board: &'a Value, key: &str) -> &'a [Value] {
        board[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key} is an array"))
    }

    /// The string `item[key]`.
    fn text<'a>(item: &'a Value, key: &str) -> &'a str {
        item[key]
            .as_str()
            .unwrap_or_else(|| panic!("{key} is a string in {item}"))
    }

    /// The integer `item[key]`.
    fn int(item: &Value, key: &str) -> i32 {
        item[key]
            .as_i64()
            .and_then(|v| i32::try_from(v).ok())
            .unwrap_or_else(|| panic!("{key} is an i32 in {item}"))
    }

    /// Station names → my stations, and the edge lists of one section as station pairs.
    fn edges(board: &Value, section: &str, names: &[(String, usize)]) -> BTreeSet<(usize, usize)> {
        let lookup = |n: &str| names.iter().find(|(name, _)| name == n).unwrap().1;
        list(board, section)
            .iter()
            .map(|edge| {
                let (a, b) = (lookup(text(edge, "a_name")), lookup(text(edge, "b_name")));
                (a.min(b), a.max(b))
            })
            .collect()
    }

    #[test]
    fn tables_equal_the_json_board() {
        let board = json();
        let stations = list(&board, "stations");
        assert_eq!(stations.len(), STATIONS);
        let mut map = Vec::new();
        for station in stations {
            let (x, y) = (int(station, "x"), int(station, "y"));
            let station_name = text(station, "name");
            let alg = text(station, "alg");
            let s = TABLES.station(x, y).expect("JSON station on my board");
            let kind = match TABLES.kind[s] {
                Kind::Rail => "rail",
                Kind::Road => "road",
                Kind::Camp => "camp",
                Kind::Hq => "hq",
            };
            assert_eq!(kind, text(station, "kind"), "{station_name}");
            assert_eq!(name(s), alg);
            assert_eq!(parse_name(alg), Some(s));
            map.push((station_name.to_string(), s));
        }
        let rail_json = edges(&board, "rail_edges", &map);
        let step_json = edges(&board, "step_edges", &map);
        assert_eq!(rail_json.len(), 92);
        assert_eq!(step_json.len(), 272);
        let collect = |table: &dyn Fn(usize) -> Vec<u8>| {
            let mut set = BTreeSet::new();
            for a in 0..STATIONS {
                for b in table(a) {
                    let b = usize::from(b);
                    assert!(table(b).contains(&(a as u8)), "symmetric {a} {b}");
                    set.insert((a.min(b), a.max(b)));
                }
            }
            set
        };
        let live = |row: &[u8]| {
            row.iter()
                .copied()
                .take_while(|&n| n != NO_STATION)
                .collect()
        };
        assert_eq!(collect(&|a| live(&TABLES.rail[a])), rail_json);
        assert_eq!(collect(&|a| live(&TABLES.step[a])), step_json);
    }

    #[test]
    fn lines_and_rays() {
        assert_eq!(TABLES.lines.len(), 18);
        let lens: Vec<usize> = TABLES.lines.iter().map(Vec::len).collect();
        assert_eq!(
            lens,
            [13, 13, 13, 13, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 10, 10, 10, 10]
        );
        // Every ray step is a rail edge, and a ray starts a step away exactly when its
        // first station is one orthogonal step from where it leaves.
        for s in 0..STATIONS {
            for (ray, step) in TABLES.rays_and_steps_from(s) {
                let ((x, y), (fx, fy)) = (TABLES.xy[s], TABLES.xy[usize::from(ray[0])]);
                assert_eq!(step, (fx - x).abs() + (fy - y).abs() == 1);
                let mut prev = s;
                for &c in ray {
                    assert!(TABLES.rail[prev].contains(&c));
                    prev = usize::from(c);
                }
            }
        }
        // k6 (S's front right corner) rides the arc to l7..p7; h6 on the front row does not.
        let k6 = parse_name("k6").unwrap();
        assert!(
            TABLES
                .rays_from(k6)
                .any(|r| r.first() == Some(&(parse_name("l7").unwrap() as u8)))
        );
        let h6 = parse_name("h6").unwrap();
        let l7 = parse_name("l7").unwrap() as u8;
        assert!(TABLES.rays_from(h6).all(|r| !r.contains(&l7)));
    }

    #[test]
    fn names_round_trip_and_refuse_garbage() {
        for s in 0..STATIONS {
            assert_eq!(parse_name(&name(s)), Some(s));
        }
        assert_eq!(name(124), "i9");
        assert_eq!(name(26), "h1");
        assert_eq!(name(30 + 28), "q10");
        for bad in ["", "a", "a0", "a01", "r9", "i", "a18", "A9", "i9x", "a1"] {
            assert_eq!(parse_name(bad), None, "{bad}");
        }
    }
}
