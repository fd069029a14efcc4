//! The games qiyi plays, each a module of its own.

pub mod foursquare;
