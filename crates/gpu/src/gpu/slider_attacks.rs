//! How the move generator finds slider attacks, chosen per device: a specialization constant
//! of the expand and leaf stages (`SLIDER_ATTACKS` in `glsl/common/attacks.glsl`).

use super::error::GpuError;
use super::shader_layout::{SLIDERS_BY_FILLS, SLIDERS_BY_LOOKUPS};
use super::vk::device::{DeviceInfo, DeviceKind};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SliderAttacks {
    /// Kogge-Stone fills on whole sets of pieces: no table reads and no loops over pieces, for
    /// CPU implementations of Vulkan (lavapipe), where invocations run in lockstep on SIMD
    /// lanes and every read of a per-invocation address costs a load of its own.
    Fills,
    /// Magic lookups per piece: fewer instructions and registers, for GPUs.
    Lookups,
}

/// The environment variable that forces one way on every device (a debug override):
/// `fills` or `lookups`.
pub const SLIDER_ATTACKS_VARIABLE: &str = "VKPERFT_SLIDERS";

impl SliderAttacks {
    pub const ALL: [SliderAttacks; 2] = [SliderAttacks::Fills, SliderAttacks::Lookups];

    /// What suits the device: fills on a CPU implementation, lookups on anything else.
    pub fn for_device(info: &DeviceInfo) -> SliderAttacks {
        if info.kind == DeviceKind::Cpu {
            SliderAttacks::Fills
        } else {
            SliderAttacks::Lookups
        }
    }

    /// `requested`, else [`SLIDER_ATTACKS_VARIABLE`] if set, else what suits the device.
    pub fn choose(
        requested: Option<SliderAttacks>,
        info: &DeviceInfo,
    ) -> Result<SliderAttacks, GpuError> {
        if let Some(sliders) = requested {
            return Ok(sliders);
        }
        match std::env::var(SLIDER_ATTACKS_VARIABLE) {
            Err(_) => Ok(SliderAttacks::for_device(info)),
            Ok(text) => SliderAttacks::from_name(text.trim()).ok_or(GpuError::BadOverride {
                variable: SLIDER_ATTACKS_VARIABLE,
                expected: "`fills` or `lookups`",
                value: text,
            }),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            SliderAttacks::Fills => "fills",
            SliderAttacks::Lookups => "lookups",
        }
    }

    pub fn from_name(name: &str) -> Option<SliderAttacks> {
        SliderAttacks::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The value of the specialization constant.
    pub fn constant(self) -> u32 {
        match self {
            SliderAttacks::Fills => SLIDERS_BY_FILLS,
            SliderAttacks::Lookups => SLIDERS_BY_LOOKUPS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_others_are_refused() {
        for sliders in SliderAttacks::ALL {
            assert_eq!(SliderAttacks::from_name(sliders.name()), Some(sliders));
        }
        assert_eq!(SliderAttacks::from_name("magic"), None);
    }
}
