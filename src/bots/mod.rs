pub mod jic;
