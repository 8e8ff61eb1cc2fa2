#include "ops/resolve.h"

#include <cmath>
#include <string>

#include "core/number_text.h"
#include "ops/schema.h"

namespace ox {
namespace {

// ---- message helpers -------------------------------------------------------------------------

std::string list_text(const double* values, int64_t count) {
  std::string out = "[";
  const int64_t shown = count < kMaxListed ? count : kMaxListed;
  for (int64_t i = 0; i < shown; ++i) out += (i ? ", " : "") + number_text(values[i]);
  if (shown < count) out += ", ...";
  return out + "]";
}

std::string dims_text(const int64_t* dims, int rank) {
  std::string out = "[";
  for (int i = 0; i < rank; ++i) out += (i ? ", " : "") + integer_text(dims[i]);
  return out + "]";
}

std::string name_text(const NameText& name) {
  std::string out(name.chars);
  if (name.length > kMaxNameLength) out += "...";
  return out;
}

const char* other_text(OtherKind other) {
  switch (other) {
    case OtherKind::String: return "a string";
    case OtherKind::Object: return "an object";
    case OtherKind::Null: return "null";
    case OtherKind::Function: return "a function";
    case OtherKind::Symbol: return "a symbol";
    case OtherKind::ListWithNonNumber: return "a list holding a non-number";
    case OtherKind::None: break;
  }
  return "an unsupported value";
}

std::string value_kind_text(const Value& v) {
  switch (v.kind) {
    case ValueKind::Number: return "the number " + number_text(v.values[0]);
    case ValueKind::Boolean: return v.values[0] != 0 ? "true" : "false";
    case ValueKind::List: return "the list " + list_text(v.values, v.count);
    case ValueKind::Other: return other_text(v.other);
    case ValueKind::Absent: break;
  }
  return "nothing";
}

bool is_integer(double v) { return std::isfinite(v) && v == std::floor(v); }

// Products of dims saturate just above 2^53: a zero elsewhere can make a tensor empty while its
// other dims are huge, and no real count exceeds 2^53.
int64_t saturating_multiply(int64_t a, int64_t b) {
  if (a == 0 || b == 0) return 0;
  if (a > (kMaxSafeInteger + 1) / b) return kMaxSafeInteger + 1;
  const int64_t p = a * b;
  return p > kMaxSafeInteger ? kMaxSafeInteger + 1 : p;
}

std::string attr_list_text(const OpVersion& version) {
  std::string out;
  for (int i = 0; i < version.attr_count; ++i) out += (i ? ", " : "") + std::string(attr_name(version.attrs[i].attr));
  return out.empty() ? "no attributes" : out;
}

// ---- the resolver ----------------------------------------------------------------------------

class Resolver {
 public:
  Resolver(const NodeRequest& request, Plan* plan) : req_(request), plan_(plan) {}

  Status label_only(std::string* out) {
    Status s = resolve_op_and_version();
    if (s.is_ok()) *out = label();
    return s;
  }

  Status run() {
    Status s = resolve_op_and_version();
    if (!s.is_ok()) return s;
    if (!(s = check_inputs()).is_ok()) return s;
    if (!(s = read_attributes()).is_ok()) return s;
    if (!(s = read_data()).is_ok()) return s;
    switch (version_->semantics) {
      case Semantics::ArgAlongAxis: return plan_along_axis();
      case Semantics::HardmaxAlongAxis: return plan_along_axis();
      case Semantics::HardmaxCoerce2D: return plan_hardmax_2d();
      case Semantics::ReduceAxesAttr:
      case Semantics::ReduceAxesInput: return plan_reduce();
    }
    return fail("internal error: unknown semantics");
  }

 private:
  Status fail(const std::string& problem) const { return Status::error(label() + ": " + problem); }

  // "<Op> version <v>[ (opset N)]" (just "<Op>" before the version is known). Built only for
  // messages: a call that succeeds builds no string.
  std::string label() const {
    std::string out = op_name(op_);
    if (!version_) return out;
    out += " version " + integer_text(version_->since);
    if (req_.opset.kind == ValueKind::Number && req_.opset.values[0] != version_->since)
      out += " (opset " + number_text(req_.opset.values[0]) + ")";
    return out;
  }

  Status resolve_op_and_version() {
    if (!op_from_name(req_.op.chars, req_.op.length, &op_))
      return Status::error("onnx-extrema: unknown operator '" + name_text(req_.op) +
                           "'; onnx-extrema implements ArgMax, ArgMin, ReduceMax and Hardmax");
    const Value& opset = req_.opset;
    if (opset.kind == ValueKind::Absent) {
      version_ = newest_version(op_);
    } else {
      if (opset.kind != ValueKind::Number || !is_integer(opset.values[0]) || opset.values[0] < 1)
        return fail("opset must be a positive integer, got " + value_kind_text(opset));
      const double wanted = opset.values[0];
      // Highest since_version <= opset (compared as doubles: any huge opset means the newest).
      version_ = resolve_version(op_, wanted >= 1e15 ? INT64_MAX : static_cast<int64_t>(wanted));
      if (!version_) return fail("opset " + number_text(wanted) + " predates the operator");
    }
    return Status::ok();
  }

  std::string input_name(int index) const {
    const char* name = index < 2 ? version_->input_names[index] : nullptr;
    return name ? std::string("'") + name + "'" : "#" + integer_text(index);
  }

  Status check_inputs() {
    const int64_t n = req_.input_count;
    if (n > version_->max_inputs) {
      std::string problem = "takes " + integer_text(version_->max_inputs) + " input" +
                            (version_->max_inputs == 1 ? "" : "s") + ", got " + integer_text(n);
      if (op_ == OpType::ReduceMax && version_->semantics == Semantics::ReduceAxesAttr)
        problem += "; axes is an input from ReduceMax version 18 on, an attribute before";
      return fail(problem);
    }
    if (n < 1 || !req_.inputs[0].present) return fail("missing required input " + input_name(0));
    return Status::ok();
  }

  Status read_attributes() {
    const int64_t listed = req_.attr_count < kMaxAttrsListed ? req_.attr_count : kMaxAttrsListed;
    for (int64_t i = 0; i < listed; ++i) {
      const AttrArg& arg = req_.attrs[i];
      if (arg.value.kind == ValueKind::Absent) continue;
      Attr attr;
      if (!attr_from_name(arg.name.chars, arg.name.length, &attr))
        return fail("unknown attribute '" + name_text(arg.name) + "' (this version takes " +
                    attr_list_text(*version_) + ")");
      const AttrSpec* spec = find_attr(*version_, attr);
      if (!spec) return fail(attribute_not_in_version(attr));
      const int a = static_cast<int>(attr);
      if (given_[a]) return fail("attribute '" + std::string(attr_name(attr)) + "' is given twice");
      given_[a] = &arg.value;
      Status s = check_attr_value(*spec, arg.value);
      if (!s.is_ok()) return s;
    }
    if (req_.attr_count > kMaxAttrsListed)
      return fail("too many attributes (" + integer_text(req_.attr_count) + "); this version takes " +
                  attr_list_text(*version_));
    return Status::ok();
  }

  std::string attribute_not_in_version(Attr attr) const {
    const std::string name = attr_name(attr);
    const int first = first_version_with_attr(op_, attr);
    if (op_ == OpType::ReduceMax && attr == Attr::Axes)
      return "takes axes as its second input, not as an attribute (axes is an attribute up to version 13)";
    if (first > version_->since)
      return "attribute '" + name + "' arrives in " + op_name(op_) + " version " + integer_text(first) +
             "; this version takes " + attr_list_text(*version_);
    return "unknown attribute '" + name + "' (this version takes " + attr_list_text(*version_) + ")";
  }

  Status check_attr_value(const AttrSpec& spec, const Value& v) const {
    const auto name = [&] { return std::string("attribute '") + attr_name(spec.attr) + "'"; };
    switch (spec.form) {
      case AttrForm::Int:
        if (v.kind != ValueKind::Number || !is_integer(v.values[0]))
          return fail(name() + " must be an integer, got " + value_kind_text(v));
        return Status::ok();
      case AttrForm::Flag:
        if ((v.kind != ValueKind::Number && v.kind != ValueKind::Boolean) ||
            (v.values[0] != 0 && v.values[0] != 1))
          return fail(name() + " must be 0 or 1 (or false/true), got " + value_kind_text(v));
        return Status::ok();
      case AttrForm::Ints:
        if (v.kind != ValueKind::List) return fail(name() + " must be a list of integers, got " + value_kind_text(v));
        for (int64_t i = 0; i < v.count && i < kMaxListed; ++i)
          if (!is_integer(v.values[i]))
            return fail(name() + " must hold integers, but entry " + integer_text(i) + " is " +
                        number_text(v.values[i]));
        return Status::ok();
    }
    return fail("internal error: unknown attribute form");
  }

  // A double, not an int64: an integer attribute may hold any integral JS number (axis 1e300), and
  // casting that to int64 is undefined behaviour (a garbage axis in wasm).
  double int_attr(Attr attr) const {
    const Value* v = given_[static_cast<int>(attr)];
    if (v) return v->values[0];
    const AttrSpec* spec = find_attr(*version_, attr);
    return spec ? static_cast<double>(spec->default_value) : 0;
  }

  // Reads a tensor's dims into `dims`; checks them and the element count against the data.
  Status read_dims(const TensorArg& t, const std::string& which, int64_t* dims, int* rank, int64_t* count) const {
    if (t.rank > kMaxRank)
      return fail("input " + which + " has rank " + integer_text(t.rank) + ", above the supported maximum of " +
                  integer_text(kMaxRank));
    *rank = static_cast<int>(t.rank);
    double product = 1;
    bool empty = false;
    for (int d = 0; d < *rank; ++d) {
      const double v = t.dims[d];
      if (!is_integer(v) || v < 0)
        return fail("input " + which + " has dims[" + integer_text(d) + "] = " + number_text(v) +
                    ", which is not a non-negative integer");
      if (v > static_cast<double>(kMaxSafeInteger))
        return fail("input " + which + " has dims[" + integer_text(d) + "] = " + number_text(v) +
                    ", above the supported maximum of 2^53 - 1");
      dims[d] = static_cast<int64_t>(v);
      product *= v;  // exact while below 2^53; beyond that it cannot match any valid data length
      empty |= v == 0;
    }
    if (empty) product = 0;  // huge dims beside a zero overflow to inf, and inf * 0 is NaN
    if (!is_integer(t.length) || t.length < 0 || t.length > static_cast<double>(kMaxSafeInteger))
      return fail("input " + which + " has an invalid data length " + number_text(t.length));
    if (product != t.length)
      return fail("input " + which + " has " + number_text(t.length) + (t.length == 1 ? " element" : " elements") + " of data but dims " +
                  dims_text(dims, *rank) + " need " + number_text(product));
    *count = static_cast<int64_t>(product);
    return Status::ok();
  }

  Status read_data() {
    const TensorArg& t = req_.inputs[0];
    const std::string which = input_name(0);
    const DTypeInfo* info = dtype_info(t.dtype);
    if (!info) return fail("input " + which + " has an unknown type code " + integer_text(t.dtype));
    dtype_ = info->code;
    if (!type_in(version_->types, dtype_)) {
      const int first = first_version_accepting(op_, dtype_);
      std::string problem = "input " + which + " has type " + info->name + ", which ";
      if (first > version_->since)
        problem += std::string(op_name(op_)) + " accepts from version " + integer_text(first) +
                   " on (opset >= " + integer_text(first) + ")";
      else
        problem += std::string("no version of ") + op_name(op_) + " accepts";
      return fail(problem + "; this version accepts " + type_names(version_->types));
    }
    Status s = read_dims(t, which, dims_, &rank_, &count_);
    if (!s.is_ok()) return s;
    plan_->input_dtype = dtype_;
    plan_->input_count = count_;
    return Status::ok();
  }

  Status normalize_axis(double axis, const std::string& what, int* out) const {
    // NaN passes no range test below; an axes input's values are not checked anywhere else (a Proxy
    // posing as a BigInt64Array can hand over NaN), and casting NaN indexed memory far outside.
    if (!is_integer(axis)) return fail(what + " " + number_text(axis) + " is not an integer");
    if (rank_ == 0)
      return fail(what + " " + number_text(axis) + " is out of range: the input is a scalar (rank 0)" +
                  " and has no axes");
    if (axis < -rank_ || axis > rank_ - 1)
      return fail(what + " " + number_text(axis) + " is out of range [" + integer_text(-rank_) + ", " +
                  integer_text(rank_ - 1) + "] for an input of rank " + integer_text(rank_));
    *out = static_cast<int>(axis < 0 ? axis + rank_ : axis);
    return Status::ok();
  }

  int64_t product(int from, int to) const {
    int64_t p = 1;
    for (int d = from; d < to; ++d) p = saturating_multiply(p, dims_[d]);
    return p;
  }

  Status set_output(DType dtype, const int64_t* dims, int rank) {
    plan_->output_dtype = dtype;
    plan_->output_rank = rank;
    int64_t count = 1;
    for (int d = 0; d < rank; ++d) count = saturating_multiply(count, plan_->output_dims[d] = dims[d]);
    plan_->output_count = count;
    if (count > kMaxSafeInteger)
      return fail("the output dims " + dims_text(dims, rank) + " hold more than 2^53 elements");
    return Status::ok();
  }

  Status check_axis_length(int64_t length) const {
    if (length > kMaxAxisLength)
      return fail("the reduced axis has " + integer_text(length) + " elements; at most " +
                  integer_text(kMaxAxisLength) + " are supported");
    return Status::ok();
  }

  // ArgMax / ArgMin / Hardmax-13: one axis, [outer, reduce, inner] around it.
  Status plan_along_axis() {
    const bool hardmax = op_ == OpType::Hardmax;
    int axis;
    Status s = normalize_axis(int_attr(Attr::Axis), "axis", &axis);
    if (!s.is_ok()) return s;
    plan_->outer = product(0, axis);
    plan_->reduce = dims_[axis];
    plan_->inner = product(axis + 1, rank_);
    plan_->prefix_count = 0;
    // An axis of one element: every output is index 0. One row of all the columns, in the same
    // order, is one pass instead of a column call per outer slice (float16 [699050,1,3] over
    // axis 1: 4.9 -> 2.9 ms end to end, most of it the int64 output).
    if (plan_->reduce == 1) plan_->inner *= plan_->outer, plan_->outer = 1;
    if (hardmax) {
      plan_->kind = PlanKind::Hardmax;
      if (!(s = set_output(dtype_, dims_, rank_)).is_ok()) return s;
      return count_ == 0 ? Status::ok() : check_axis_length(plan_->reduce);
    }
    plan_->kind = op_ == OpType::ArgMax ? PlanKind::ArgMax : PlanKind::ArgMin;
    plan_->select_last = int_attr(Attr::SelectLastIndex) != 0;
    if (plan_->reduce == 0)
      return fail("axis " + integer_text(axis) + " has length 0: " + op_name(op_) +
                  " of an empty set has no index");
    int64_t out_dims[kMaxRank];
    int out_rank = 0;
    const bool keep = int_attr(Attr::Keepdims) != 0;
    for (int d = 0; d < rank_; ++d) {
      if (d != axis) out_dims[out_rank++] = dims_[d];
      else if (keep) out_dims[out_rank++] = 1;
    }
    if (!(s = set_output(DType::Int64, out_dims, out_rank)).is_ok()) return s;
    return plan_->output_count == 0 ? Status::ok() : check_axis_length(plan_->reduce);
  }

  // Hardmax 1 and 11: rows of the [prod(d[:axis]), prod(d[axis:])] matrix.
  Status plan_hardmax_2d() {
    int axis;
    Status s = normalize_axis(int_attr(Attr::Axis), "axis", &axis);
    if (!s.is_ok()) return s;
    plan_->kind = PlanKind::Hardmax;
    plan_->outer = product(0, axis);
    plan_->reduce = product(axis, rank_);
    plan_->inner = 1;
    plan_->prefix_count = 0;
    if (!(s = set_output(dtype_, dims_, rank_)).is_ok()) return s;
    return count_ == 0 ? Status::ok() : check_axis_length(plan_->reduce);
  }

  Status plan_reduce() {
    bool reduced[kMaxRank] = {};
    bool reduce_all = true;
    const bool by_input = version_->semantics == Semantics::ReduceAxesInput;
    const double* axes = nullptr;
    int64_t axis_count = 0;
    std::string axes_name = "axes";
    if (by_input) {
      if (req_.input_count > 1 && req_.inputs[1].present) {
        Status s = read_axes_input(&axes, &axis_count);
        if (!s.is_ok()) return s;
      }
      if (axis_count == 0 && int_attr(Attr::NoopWithEmptyAxes) != 0) {
        plan_->kind = PlanKind::Identity;
        return set_output(dtype_, dims_, rank_);
      }
    } else if (const Value* v = given_[static_cast<int>(Attr::Axes)]) {
      axes = v->values;
      axis_count = v->count;
    }
    if (axis_count > 0) {
      reduce_all = false;
      // A list longer than the rank holds a repeat or an out-of-range entry within its first rank+1
      // entries, all of which are carried (kMaxListed > kMaxRank), so checking those suffices.
      const int64_t carried = axis_count < kMaxListed ? axis_count : kMaxListed;
      for (int64_t i = 0; i < carried; ++i) {
        int axis;
        Status s = normalize_axis(axes[i], axes_name + " entry", &axis);
        if (!s.is_ok()) return s;
        if (reduced[axis])
          return fail("axis " + integer_text(axis) + " appears twice in " + axes_name + " " +
                      list_text(axes, axis_count));
        reduced[axis] = true;
      }
    }
    if (reduce_all)
      for (int d = 0; d < rank_; ++d) reduced[d] = true;

    int64_t out_dims[kMaxRank];
    int out_rank = 0;
    const bool keep = int_attr(Attr::Keepdims) != 0;
    for (int d = 0; d < rank_; ++d) {
      if (!reduced[d]) out_dims[out_rank++] = dims_[d];
      else if (keep) out_dims[out_rank++] = 1;
    }
    Status s = set_output(dtype_, out_dims, out_rank);
    if (!s.is_ok()) return s;
    plan_->kind = PlanKind::ReduceMax;
    if (count_ == 0) {  // every output (if any) is the lowest value of the type
      plan_->outer = plan_->output_count;
      plan_->reduce = 0;
      plan_->inner = 1;
      plan_->prefix_count = 0;
      return Status::ok();
    }
    build_reduce_steps(dims_, reduced, rank_, plan_);
    return Status::ok();
  }

  Status read_axes_input(const double** axes, int64_t* count) {
    const TensorArg& t = req_.inputs[1];
    const std::string which = input_name(1);
    if (t.dtype != static_cast<int32_t>(DType::Int64)) {
      const DTypeInfo* info = dtype_info(t.dtype);
      return fail("input " + which + " must be an int64 tensor, got " + (info ? info->name : "an unknown type"));
    }
    int64_t dims[kMaxRank];
    int rank;
    int64_t n;
    Status s = read_dims(t, which, dims, &rank, &n);
    if (!s.is_ok()) return s;
    if (rank != 1) return fail("input " + which + " must be 1-D, got dims " + dims_text(dims, rank));
    if (t.value_count != n) return fail("input " + which + " values were not passed");
    *axes = t.values;
    *count = n;
    return Status::ok();
  }

  const NodeRequest& req_;
  Plan* plan_;
  OpType op_ = OpType::ArgMax;
  const OpVersion* version_ = nullptr;
  const Value* given_[kAttrCount] = {};
  DType dtype_ = DType::Undefined;
  int64_t dims_[kMaxRank] = {};
  int rank_ = 0;
  int64_t count_ = 0;
};

}  // namespace

Status resolve(const NodeRequest& request, Plan* plan) {
  *plan = Plan();
  return Resolver(request, plan).run();
}

Status node_label(const NodeRequest& request, std::string* label) {
  Plan unused;
  return Resolver(request, &unused).label_only(label);
}

bool reduce_axes_is_input(const Value& opset) {
  const OpVersion* version = newest_version(OpType::ReduceMax);
  if (opset.kind == ValueKind::Number && is_integer(opset.values[0]) && opset.values[0] >= 1)
    version = resolve_version(OpType::ReduceMax, opset.values[0] >= 1e15 ? INT64_MAX
                                                                         : static_cast<int64_t>(opset.values[0]));
  return version && version->semantics == Semantics::ReduceAxesInput;
}

}  // namespace ox
