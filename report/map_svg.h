// The fabric map drawn as SVG: one panel per spine, leaf (its ports, then the NICs cabled to
// it), lone host and the hosts themselves, flowed into rows; every cell a <rect> carrying the
// DOM contract of docs/report.md: class "cell <kind>" (+ "culprit" / "victim"),
// data-entity, data-value (the figure it is coloured by, "" for none) and data-values (every
// metric's, comma-separated in the map's metric order, for the page's selector; "=" stands
// for the metric's fleet normal, empty for no data).
#pragma once

#include <string>

#include "report/fabric_map.h"

namespace netdoctor::report {

struct SvgOptions {
  // A file of its own (beside a Markdown postmortem): XML prolog, namespace, its own style and
  // legend. Otherwise inline in the HTML page, which styles it and draws the legend.
  bool standalone = false;
};

std::string render_map_svg(const FabricMap& map, const SvgOptions& options = {});

}  // namespace netdoctor::report
