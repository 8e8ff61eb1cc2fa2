// Validates a node call against the operator table and turns it into a Plan. Every rejection
// is a Status whose message names the operator, the version in use and the problem.
#pragma once
#include <string>

#include "core/status.h"
#include "ops/request.h"
#include "plan/plan.h"

namespace ox {

Status resolve(const NodeRequest& request, Plan* plan);

// Resolves only the operator and version ("ArgMax version 13 (opset 17)"), for messages about
// problems the JS wrapper finds in a tensor-like before a full request can be made.
Status node_label(const NodeRequest& request, std::string* label);

// Whether the version `opset` selects takes ReduceMax's axes as an input (18+) rather than an
// attribute. An absent opset means the newest version.
bool reduce_axes_is_input(const Value& opset);

}  // namespace ox
