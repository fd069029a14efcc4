//! Seat clocks for `--tc`: a time control, what each seat has left, and the `go` line
//! that tells a seat every clock.

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// A time control `BASE+INC` (seconds, as match runners write it: `60+0.5`): every seat
/// starts with `base` and gains `inc` after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let ms = |part: &str| -> Result<u64, String> {
            let seconds: f64 = part
                .trim()
                .parse()
                .map_err(|_| format!("'{part}' is not a number of seconds"))?;
            if !seconds.is_finite() || !(0.0..=86_400.0).contains(&seconds) {
                return Err(format!("{part} s is out of range (0 to 86400)"));
            }
            Ok((seconds * 1000.0).round() as u64)
        };
        let control = TimeControl {
            base_ms: ms(base)?,
            inc_ms: ms(inc)?,
        };
        if control.base_ms == 0 && control.inc_ms == 0 {
            return Err(format!("'{text}' leaves no time to move"));
        }
        Ok(control)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let seconds = |ms: u64| ms as f64 / 1000.0;
        write!(f, "{}+{}", seconds(self.base_ms), seconds(self.inc_ms))
    }
}

/// What each seat has left, milliseconds.
#[derive(Clone, Debug)]
pub struct Clocks {
    control: TimeControl,
    left: [u64; 4],
}

impl Clocks {
    pub fn new(control: TimeControl) -> Clocks {
        Clocks {
            control,
            left: [control.base_ms; 4],
        }
    }

    /// What `seat` has left, milliseconds.
    pub fn left(&self, seat: usize) -> u64 {
        self.left[seat]
    }

    /// The `go` line: every seat's clock and increment, as the UGI dialect names them.
    pub fn go(&self) -> String {
        let inc = self.control.inc_ms;
        let [s, e, n, w] = self.left;
        format!(
            "go stime {s} etime {e} ntime {n} wtime {w} sinc {inc} einc {inc} ninc {inc} winc {inc}"
        )
    }

    /// Takes a move of `seat` that took `took` off its clock (to zero at least: a move
    /// within the margin past the clock stands) and adds the increment.
    pub fn charge(&mut self, seat: usize, took: Duration) {
        let took = took.as_millis().min(u128::from(u64::MAX)) as u64;
        self.left[seat] = self.left[seat].saturating_sub(took) + self.control.inc_ms;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_controls_read_as_match_runners_write_them() {
        let tc: TimeControl = "60+0.5".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (60_000, 500));
        assert_eq!(tc.to_string(), "60+0.5");
        let tc: TimeControl = "2.5".parse().unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (2_500, 0));
        for bad in ["", "x+1", "1+y", "-1+0", "0+0", "1e9", "inf+1"] {
            assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_move_is_charged_to_its_seat_alone_and_never_below_zero() {
        let mut clocks = Clocks::new("1+0.1".parse().unwrap());
        clocks.charge(1, Duration::from_millis(300));
        assert_eq!(
            clocks.go(),
            "go stime 1000 etime 800 ntime 1000 wtime 1000 sinc 100 einc 100 ninc 100 winc 100"
        );
        clocks.charge(1, Duration::from_millis(5_000));
        assert_eq!(clocks.left(1), 100);
    }
}
