// Per-dtype vector facts for the SIMD kernels, so each kernel family is written once:
//  - Summary: what a row block's first pass accumulates (a running max/min per lane and, for
//    floats, a NaN detector), and the block's extreme value afterwards;
//  - nan_mask / equal_mask: the exact per-lane tests of the rescan that settles a block;
//  - Key / key(): a lane-wise compare domain with the ArgRule order built in, for the column
//    kernels that compare element by element.
// Extremes are ordered as the scalar Traits order them: -0 == +0, and NaN handled apart.
// One family a file: lane_ops.h (what they share), float_lanes.h, int_lanes.h, half_lanes.h
// (sign_magnitude.h: the bits' row pass of float16/bfloat16 and float32). LanesFor picks a dtype's.
#pragma once
#include <cstdint>

#include "core/half.h"
#include "kernels/float_lanes.h"
#include "kernels/half_lanes.h"
#include "kernels/int_lanes.h"
#include "kernels/lane_ops.h"
#include "kernels/traits.h"

namespace ox {

template <DType D> struct LanesFor;
template <> struct LanesFor<DType::Float32> { using type = FloatLanes<float>; };
template <> struct LanesFor<DType::Float64> { using type = FloatLanes<double>; };
template <> struct LanesFor<DType::Float16> { using type = HalfLanes<HalfFormatAtRunTime>; };
template <> struct LanesFor<DType::BFloat16> { using type = HalfLanes<HalfFormatAtRunTime>; };
template <> struct LanesFor<DType::Int8> { using type = IntLanes<int8_t>; };
template <> struct LanesFor<DType::Uint8> { using type = IntLanes<uint8_t>; };
template <> struct LanesFor<DType::Int16> { using type = IntLanes<int16_t>; };
template <> struct LanesFor<DType::Uint16> { using type = IntLanes<uint16_t>; };
template <> struct LanesFor<DType::Int32> { using type = IntLanes<int32_t>; };
template <> struct LanesFor<DType::Uint32> { using type = IntLanes<uint32_t>; };
template <> struct LanesFor<DType::Int64> { using type = IntLanes<int64_t>; };
template <> struct LanesFor<DType::Uint64> { using type = IntLanes<uint64_t, int64_t>; };
template <> struct LanesFor<DType::Bool> { using type = IntLanes<uint8_t>; };

}  // namespace ox
