#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR Linux-OpenIB
# Writes the Grafana dashboard "rdmadiag: RoCE health" (contrib/grafana/rdmadiag-dashboard.json)
# on standard output.  The JSON is generated, so that every query carries the same filter and
# the panels are laid out without overlap; tests/bats/prom_rules.bats checks that the
# committed file is this script's output, and checks the file itself.
#   contrib/grafana/mk-dashboard.py > contrib/grafana/rdmadiag-dashboard.json
import json

UID = "rdmadiag-roce-health"
DS = {"type": "prometheus", "uid": "${datasource}"}
# every query's selector: the variables, in their chain order
PORT_SEL = 'job=~"$job", instance=~"$instance", device=~"$device", port=~"$port"'
# the device-level families (rdma_qps, rdma_device_max_qp) have no port label
DEV_SEL = 'job=~"$job", instance=~"$instance", device=~"$device"'
WHO = "{{instance}} {{device}}/{{port}}"
RATE = "[$__rate_interval]"


def variable(name, label, query):
    return {
        "name": name, "label": label, "type": "query", "datasource": DS,
        "definition": query,
        "query": {"query": query, "refId": "PrometheusVariableQueryEditor-VariableQuery"},
        "refresh": 2, "sort": 3, "multi": True, "includeAll": True, "allValue": ".*",
        "current": {"selected": True, "text": ["All"], "value": ["$__all"]},
        "hide": 0, "regex": "", "skipUrlSync": False, "options": [],
    }


def templating():
    sel = []
    out = [{
        "name": "datasource", "label": "Data source", "type": "datasource",
        "query": "prometheus", "refresh": 1, "regex": "", "hide": 0, "current": {},
        "includeAll": False, "multi": False, "options": [], "skipUrlSync": False,
    }]
    for name, label in (("job", "Job"), ("instance", "Instance"), ("device", "Device"),
                        ("port", "Port")):
        info = "rdma_port_info{%s}" % ", ".join(sel) if sel else "rdma_port_info"
        out.append(variable(name, label, "label_values(%s, %s)" % (info, name)))
        sel.append('%s=~"$%s"' % (name, name))
    return out


def target(expr, legend, ref):
    return {"datasource": DS, "expr": expr, "legendFormat": legend, "refId": ref,
            "range": True, "editorMode": "code"}


def targets(*pairs):
    return [target(e, l, chr(ord("A") + i)) for i, (e, l) in enumerate(pairs)]


def timeseries(title, desc, unit, tgts, stack=False):
    custom = {"drawStyle": "line", "lineWidth": 1, "fillOpacity": 10, "showPoints": "never",
              "spanNulls": False, "stacking": {"mode": "normal" if stack else "none",
                                               "group": "A"}}
    return {"type": "timeseries", "title": title, "description": desc, "datasource": DS,
            "targets": tgts,
            "fieldConfig": {"defaults": {"unit": unit, "custom": custom}, "overrides": []},
            "options": {"legend": {"displayMode": "table", "placement": "bottom",
                                   "showLegend": True, "calcs": ["mean", "max"]},
                        "tooltip": {"mode": "multi", "sort": "desc"}}}


def mapping(values):
    """value -> (text, colour) as Grafana's value mappings"""
    return [{"type": "value", "options": {
        str(v): {"text": t, "color": c, "index": i}
        for i, (v, (t, c)) in enumerate(values.items())}}]


def state_timeline(title, desc, tgts, values):
    return {"type": "state-timeline", "title": title, "description": desc, "datasource": DS,
            "targets": tgts,
            "fieldConfig": {"defaults": {"mappings": mapping(values),
                                         "color": {"mode": "thresholds"},
                                         "thresholds": {"mode": "absolute", "steps": [
                                             {"color": "text", "value": None}]}},
                            "overrides": []},
            "options": {"showValue": "auto", "mergeValues": True, "rowHeight": 0.9,
                        "legend": {"showLegend": False}, "tooltip": {"mode": "single"}}}


def stat(title, desc, unit, tgts, values=None, steps=None):
    defaults = {"unit": unit, "color": {"mode": "thresholds"},
                "thresholds": {"mode": "absolute",
                               "steps": steps or [{"color": "text", "value": None}]}}
    if values:
        defaults["mappings"] = mapping(values)
    return {"type": "stat", "title": title, "description": desc, "datasource": DS,
            "targets": tgts, "fieldConfig": {"defaults": defaults, "overrides": []},
            "options": {"reduceOptions": {"calcs": ["lastNotNull"], "fields": "",
                                          "values": False},
                        "colorMode": "background", "graphMode": "none", "textMode": "auto",
                        "justifyMode": "auto", "orientation": "auto"}}


def rate(family, sel=PORT_SEL):
    return "rate(%s{%s}%s)" % (family, sel, RATE)


def concept_rates(*concepts):
    """one target per concept family (rdma_<concept>_total), per second, named after it"""
    return targets(*((rate("rdma_%s_total" % c), "%s %s" % (WHO, c)) for c in concepts))


def panels():
    S = PORT_SEL
    # (panel, width, height), laid out left to right, rows as high as their tallest panel
    p = [
        (state_timeline(
            "Port state",
            "rdma_port_state_id: the IB port state; a port that carries traffic is ACTIVE. "
            "Alert RdmaPortDown.",
            targets(("rdma_port_state_id{%s}" % S, WHO)),
            {1: ("DOWN", "red"), 2: ("INIT", "orange"), 3: ("ARMED", "yellow"),
             4: ("ACTIVE", "green"), 5: ("ACTIVE_DEFER", "green")}), 12, 7),
        (timeseries(
            "Port flaps (15 min)",
            "State changes and link-down events over 15 minutes. Alert RdmaPortFlapping.",
            "short",
            targets(("changes(rdma_port_state_id{%s}[15m])" % S, WHO + " state changes"),
                    ("increase(rdma_link_down_total{%s}[15m])" % S, WHO + " link down"))),
         12, 7),
        (timeseries(
            "Throughput per port",
            "RDMA bytes received and sent (rdma_rx_bytes_total, rdma_tx_bytes_total), in "
            "bits per second.",
            "bps",
            targets((rate("rdma_rx_bytes_total") + " * 8", WHO + " rx"),
                    (rate("rdma_tx_bytes_total") + " * 8", WHO + " tx"))), 12, 8),
        (timeseries(
            "Throughput per priority",
            "The netdev's bytes per 802.1Q priority (ethtool -S), in bits per second: "
            "RoCE should move on its lossless priority.",
            "bps",
            targets(("sum by (instance, device, port, priority, direction) (%s) * 8"
                     % rate("rdma_eth_priority_bytes_total"),
                     WHO + " prio {{priority}} {{direction}}"))), 12, 8),
        (timeseries(
            "PFC pause frames per priority",
            "PFC pause frames per second, per priority and direction (rx: the switch "
            "paused us; tx: we paused the switch).",
            "pps",
            targets(("sum by (instance, device, port, priority, direction) (%s)"
                     % rate("rdma_eth_priority_pause_frames_total"),
                     WHO + " prio {{priority}} {{direction}}"))), 12, 8),
        (timeseries(
            "DCQCN: ECN marked and CNPs",
            "The two halves of DCQCN: ECN-marked packets received and the CNPs sent back "
            "(notification point); CNPs received and handled (reaction point). "
            "Alert RdmaCnpWithoutEcn.",
            "pps",
            concept_rates("ecn_marked", "cnp_sent", "cnp_received", "cnp_handled")), 12, 8),
        (timeseries(
            "Retries by cause",
            "Retransmissions per second: transport retries (timeout or NAK), ACK timeouts, "
            "RNR NAKs and NAK-sequence errors received, packets retransmitted. "
            "Alert RdmaRetriesHigh.",
            "ops",
            concept_rates("transport_retry", "ack_timeout", "rnr_nak_received",
                          "nak_seq_received", "retransmitted_packets")), 12, 8),
        (timeseries(
            "NAK sequence and out of sequence",
            "PSN gaps: NAK-sequence errors received (our packets lost) and sent, packets "
            "received out of sequence (theirs lost). Alert RdmaNakSequenceHigh.",
            "ops",
            concept_rates("nak_seq_received", "nak_seq_sent", "out_of_sequence")), 12, 8),
        (timeseries(
            "RNR NAKs",
            "Receiver-not-ready NAKs received and sent per second, and work requests failed "
            "with the RNR retries exhausted. Alert RdmaRnrNakHigh.",
            "ops",
            concept_rates("rnr_nak_received", "rnr_nak_sent", "rnr_retry_exceeded")), 12, 8),
        (timeseries(
            "Connection failures by cause",
            "Failed RDMA CM connections over 10 minutes, by cause (the agent's "
            "connections collector: rdmatrace -c's causes; it needs tracefs rights), "
            "as the rules count them (rdma:connection_failures:increase10m, which also "
            "counts a cause's first failure). Alert RdmaConnectionFailures.",
            "short",
            targets(("sum by (instance, device, cause) "
                     "(rdma:connection_failures:increase10m{%s})" % DEV_SEL,
                     "{{instance}} {{device}} {{cause}}"))), 12, 8),
        (timeseries(
            "QPs in use and the device's limit",
            "Queue pairs by type (rdma_qps) against the device's max_qp. "
            "Alert RdmaQpNearLimit.",
            "short",
            targets(("sum by (instance, device, type) (rdma_qps{%s})" % DEV_SEL,
                     "{{instance}} {{device}} {{type}}"),
                    ("max by (instance, device) (rdma_device_max_qp{%s})" % DEV_SEL,
                     "{{instance}} {{device}} max_qp"))), 12, 8),
        (state_timeline(
            "Lossless chain links",
            "rdmastat fabric's chain, link by link: ToS, DSCP, priority, PFC, ECN, CNP "
            "priority, traffic, ETS, pause. Alerts RdmaRocePriorityWithoutPfc and "
            "RdmaLosslessChainBroken.",
            targets(("rdma_fabric_link_state{%s}" % S, WHO + " {{link}}")),
            {0: ("ok", "green"), 1: ("broken", "red"), 2: ("unknown", "yellow"),
             3: ("not available", "text")}), 12, 8),
        (stat(
            "Lossless chain verdict",
            "rdma_fabric_chain_ok: 1 when the chain holds, 0 when it is broken or unknown.",
            "none",
            targets(("rdma_fabric_chain_ok{%s}" % S, WHO)),
            values={0: ("broken or unknown", "red"), 1: ("ok", "green")}), 8, 5),
        (stat(
            "RoCE priority",
            "rdma_fabric_roce_priority: the 802.1Q priority the port's RoCE traffic rides.",
            "none",
            targets(("rdma_fabric_roce_priority{%s}" % S, WHO))), 8, 5),
        (stat(
            "QP use",
            "Queue pairs in use over the device's max_qp. Alert RdmaQpNearLimit at 90 %.",
            "percentunit",
            targets(("sum by (instance, device) (rdma_qps{%s}) / on (instance, device) "
                     "max by (instance, device) (rdma_device_max_qp{%s})"
                     % (DEV_SEL, DEV_SEL), "{{instance}} {{device}}")),
            steps=[{"color": "green", "value": None}, {"color": "orange", "value": 0.8},
                   {"color": "red", "value": 0.9}]), 8, 5),
    ]
    out, x, y, row_h = [], 0, 0, 0
    for i, (panel, w, h) in enumerate(p):
        if x + w > 24:
            x, y, row_h = 0, y + row_h, 0
        panel["id"] = i + 1
        panel["gridPos"] = {"x": x, "y": y, "w": w, "h": h}
        out.append(panel)
        x, row_h = x + w, max(row_h, h)
    return out


def dashboard():
    return {
        "uid": UID,
        "title": "rdmadiag: RoCE health",
        "description": "RoCE health of RDMA hosts, from rdmadiag_exporter: throughput, "
                       "PFC, DCQCN, retries, connections, QPs, port and lossless-chain "
                       "state. Alerts: contrib/prometheus/rdmadiag-rules.yml.",
        "tags": ["rdma", "roce", "rdmadiag"],
        "schemaVersion": 39,
        "version": 1,
        "editable": True,
        "graphTooltip": 1,
        "timezone": "utc",
        "time": {"from": "now-6h", "to": "now"},
        "refresh": "1m",
        "links": [],
        "annotations": {"list": [{
            "builtIn": 1, "datasource": {"type": "grafana", "uid": "-- Grafana --"},
            "enable": True, "hide": True, "iconColor": "rgba(0, 211, 255, 1)",
            "name": "Annotations & Alerts", "type": "dashboard"}]},
        "templating": {"list": templating()},
        "panels": panels(),
    }


print(json.dumps(dashboard(), indent=2))
