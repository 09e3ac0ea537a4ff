//! Fuzz target: `tetrad::fuzzing::replay` (see that function for what it runs).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    tetrad::fuzzing::replay(data);
});
