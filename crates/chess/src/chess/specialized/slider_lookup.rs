//! Which slider lookup the specialised generator uses on this CPU: PEXT where BMI2 is present
//! and fast, magic multiplication elsewhere (in the BMI2 build where the CPU has BMI2, whose
//! other instructions are fast even where PEXT is not), or the one `VKPERFT_CPU_SLIDERS` asks
//! for. Only the choice lives here; the lookups themselves are in `sliders`.

use std::sync::OnceLock;

/// How the specialised generator looks up slider attacks on this CPU.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderLookup {
    /// PEXT (x86-64 BMI2).
    Pext,
    /// Magic multiplication, in the BMI2 build where the CPU has BMI2.
    Magic,
    /// Magic multiplication in the build for any x86-64-v2 CPU: what `Magic` falls back to,
    /// asked for by name to test or time that build on a CPU with BMI2.
    PortableMagic,
}

/// The environment variable that chooses the CPU generator's slider lookup (`pext`, `magic`,
/// `portable-magic` or `auto`; the GPU's is `VKPERFT_SLIDERS`): a measurement knob, to time one
/// against the other on the same machine.
pub const SLIDERS_VARIABLE: &str = "VKPERFT_CPU_SLIDERS";

impl SliderLookup {
    /// The lookup [`SLIDERS_VARIABLE`] asks for: `None` when it is unset or `auto`, an error
    /// naming the values it takes when it is something else, or `pext` on a CPU without BMI2.
    pub fn from_env() -> Result<Option<SliderLookup>, String> {
        let Some(value) = std::env::var_os(SLIDERS_VARIABLE) else {
            return Ok(None);
        };
        match value.to_str() {
            Some("auto") => Ok(None),
            Some("magic") => Ok(Some(SliderLookup::Magic)),
            Some("portable-magic") => Ok(Some(SliderLookup::PortableMagic)),
            Some("pext") if bmi2_present() => Ok(Some(SliderLookup::Pext)),
            Some("pext") => Err(format!("{SLIDERS_VARIABLE}=pext: this CPU has no BMI2")),
            _ => Err(format!(
                "{SLIDERS_VARIABLE}={}: expected pext, magic, portable-magic or auto",
                value.to_string_lossy()
            )),
        }
    }

    /// The fastest this CPU has, PEXT if BMI2 is present and fast, else magics; or the one
    /// [`SLIDERS_VARIABLE`] asks for (an invalid value is ignored here: the command line
    /// refuses it before it runs anything). Asked once per process: CPUID is slow, in a
    /// virtual machine very slow.
    pub fn detect() -> SliderLookup {
        static DETECTED: OnceLock<SliderLookup> = OnceLock::new();
        *DETECTED.get_or_init(|| match SliderLookup::from_env() {
            Ok(Some(lookup)) => lookup,
            Ok(None) | Err(_) if fast_pext_available() => SliderLookup::Pext,
            Ok(None) | Err(_) => SliderLookup::Magic,
        })
    }

    /// Every lookup this CPU runs as asked (without BMI2, `Pext` and `Magic` would run the
    /// portable magics).
    pub fn available() -> Vec<SliderLookup> {
        match bmi2_present() {
            true => vec![
                SliderLookup::Pext,
                SliderLookup::Magic,
                SliderLookup::PortableMagic,
            ],
            false => vec![SliderLookup::PortableMagic],
        }
    }

    /// What runs: the lookup and, for magics, the build.
    pub fn name(self) -> &'static str {
        match self {
            SliderLookup::Pext => "PEXT (BMI2)",
            SliderLookup::Magic if bmi2_present() => "magic bitboards (BMI2 build)",
            SliderLookup::Magic | SliderLookup::PortableMagic => "magic bitboards",
        }
    }
}

/// Whether this CPU has the instructions the BMI2 build of the generator uses.
pub fn bmi2_present() -> bool {
    #[cfg(target_arch = "x86_64")]
    return std::is_x86_feature_detected!("bmi1")
        && std::is_x86_feature_detected!("bmi2")
        && std::is_x86_feature_detected!("lzcnt")
        && std::is_x86_feature_detected!("avx2");
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// BMI2 with PEXT in hardware: AMD before Zen 3 runs it in microcode, slower than a magic
/// multiply.
#[cfg(target_arch = "x86_64")]
fn fast_pext_available() -> bool {
    if !bmi2_present() {
        return false;
    }
    let vendor = std::arch::x86_64::__cpuid(0);
    let amd = [vendor.ebx, vendor.edx, vendor.ecx] == [0x6874_7541, 0x6974_6e65, 0x444d_4163];
    let signature = std::arch::x86_64::__cpuid(1).eax;
    let family = ((signature >> 8) & 0xf) + ((signature >> 20) & 0xff);
    !(amd && family < 0x19)
}

#[cfg(not(target_arch = "x86_64"))]
fn fast_pext_available() -> bool {
    false
}
