//! Fuzz target: `tetrad::fuzzing::checkpoint` (see that function for what it runs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tetrad::fuzzing::checkpoint(data);
});
