#!/usr/bin/env python3
"""Regenerates fuzz/corpus/<harness>/ from shared/reference, the shared scenarios and the
repository's examples. Seeds are small on purpose (the whole corpus stays well under 3 MB):
libFuzzer mutates small inputs faster, and one sample per format covers the grammar.

usage: fuzz/make_corpus.py [SHARED_DIR]   (default: ../shared beside the checkout)
"""
import glob
import hashlib
import io
import os
import shutil
import struct
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SHARED = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared")
OUT = os.path.join(ROOT, "fuzz", "corpus")
MAX_SEED = 64 * 1024

# parser kind -> globs under shared/reference, under a scenario host/switch sample, or (repo/)
# under this checkout (captures and variants kept with the parser tests).
PARSER_SEEDS = {
    "ethtool-stats": ["reference/ethtool/*_S*", "reference/ethtool/*grep*", "reference/local/ethtool_-S*",
                      "sample/sos_commands/*/ethtool_-S_*"],
    "ethtool-info": ["reference/ethtool/*_i_*", "reference/local/ethtool_-i*", "sample/sos_commands/*/ethtool_-i_*"],
    "ethtool-link": ["reference/ethtool/*settings*", "sample/sos_commands/networking/ethtool_ens*"],
    "ip-address": ["reference/iplink/ip_link*", "sample/sos_commands/*/ip_-d_address"],
    "ibv-devinfo": ["reference/ibv/*", "sample/sos_commands/*/ibv_devinfo_-v"],
    "rdma-link": ["reference/iplink/ibdev2netdev*", "reference/sysfs/rdma_*", "sample/sos_commands/*/rdma_link_show"],
    "mlnx-qos": ["reference/qos/*", "sample/sos_commands/*/mlnx_qos_*"],
    "dcb": ["repo/tests/parsers/data/dcb_*"],
    "chronyc-tracking": ["reference/clock/*", "reference/local/chronyc*", "sample/sos_commands/*/chronyc_tracking"],
    "lldpcli-json": ["reference/lldp/*", "sample/sos_commands/*/lldpcli_*"],
    "perftest": ["reference/perftest/*", "perftest/*/*"],
    "sonic-interfaces-counters": ["reference/switch/*interfaces_counters*", "switch/sos_commands/*/show_interfaces_counters"],
    "sonic-interfaces-status": ["switch/sos_commands/*/show_interfaces_status"],
    "sonic-pfc-counters": ["reference/switch/*pfc*", "switch/sos_commands/*/show_pfc_counters"],
    "sonic-queue-counters": ["reference/switch/*queue*", "switch/sos_commands/*/show_queue_counters"],
    "sonic-lldp-table": ["switch/sos_commands/*/show_lldp_table"],
    "nccl-tests": ["reference/nccl/*", "repo/tests/parsers/data/nccl_tests_*"],
    "chronyc-sources": ["reference/clock/chronyc_sources*", "repo/tests/parsers/data/clock_chronyc_sources*"],
    "ntpq": ["reference/clock/ntpq*", "repo/tests/parsers/data/clock_ntpq*"],
    "pmc": ["repo/tests/parsers/data/clock_pmc*"],
    "ptp4l-log": ["reference/clock/ptp4l*", "repo/tests/parsers/data/clock_ptp4l*"],
    "show-gids": ["reference/ibv/show_gids*", "repo/tests/parsers/data/show_gids_*"],
    "ibdev2netdev": ["reference/iplink/ibdev2netdev*", "reference/sysfs/rdma_statistic*",
                     "repo/tests/parsers/data/ibdev2netdev_*"],
    "rdma-statistic": ["reference/sysfs/rdma_statistic*", "reference/rdma/rdma_statistic*",
                       "repo/tests/parsers/data/rdma_statistic_*"],
    "rdma-resource": ["reference/sysfs/rdma_resource*", "repo/tests/parsers/data/rdma_resource_*"],
    "lldpcli-text": ["repo/tests/parsers/data/lldpcli_text_*"],
    "lspci": ["repo/tests/parsers/data/lspci_*"],
    "dmesg": ["repo/tests/parsers/data/dmesg_*"],
    "nccl-log": ["reference/nccl/nccl_info_*", "repo/tests/parsers/data/nccl_log_*"],
    "sonic-pfcwd-stats": ["reference/switch/*pfcwd*", "repo/tests/parsers/data/sonic_pfcwd_*"],
    "ibnetdiscover": ["reference/ib/ibnetdiscover*", "repo/tests/fixtures/ib/ibsim_ibnetdiscover*"],
    "iblinkinfo": ["reference/ib/iblinkinfo*", "repo/tests/fixtures/ib/ibsim_iblinkinfo*"],
    "perfquery": ["reference/ib/perfquery*", "repo/tests/fixtures/ib/ibsim_perfquery*"],
    "ibqueryerrors": ["reference/ib/ibqueryerrors*", "repo/tests/fixtures/ib/ibsim_ibqueryerrors*"],
    "sminfo": ["repo/tests/fixtures/ib/ibsim_sminfo*"],
    "ibnodes": ["reference/ib/ibswitches*", "repo/tests/fixtures/ib/ibsim_ib[hns][ow]*"],
    # The reference db_csv (968 KB) is over MAX_SEED: the fixture fabric carries its headers.
    "ibdiagnet-db-csv": ["repo/tests/fixtures/ibdiag/ibdiagnet2.db_csv"],
    "ibdiagnet-pm": ["repo/tests/fixtures/ibdiag/ibdiagnet2.pm"],
    "ibdiagnet-net-dump": ["repo/tests/fixtures/ibdiag/ibdiagnet2.net_dump"],
    "ibdiagnet-log": ["reference/ibdiag/ibdiagnet2_log*", "repo/tests/fixtures/ibdiag/ibdiagnet2.log"],
}


def scenario_dirs():
    dirs = []
    for tgz in sorted(glob.glob(os.path.join(SHARED, "scenarios", "*.tar.gz"))):
        name = os.path.basename(tgz)[: -len(".tar.gz")]
        extracted = os.path.join("/tmp/sc", name, name)
        if os.path.isdir(extracted):
            dirs.append(extracted)
    return dirs


def put(harness, data, limit=MAX_SEED):
    if not data or len(data) > limit:
        return
    d = os.path.join(OUT, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, hashlib.sha1(data).hexdigest()[:16]), "wb") as f:
        f.write(data)


def first_sample(scenario, kind):
    machines = sorted(glob.glob(os.path.join(scenario, kind, "*")))
    return os.path.join(machines[0], "0") if machines else None


def parser_seeds(scenarios):
    for kind, patterns in PARSER_SEEDS.items():
        harness = "fuzz_parser_" + kind.replace("-", "_")
        for pattern in patterns:
            where, rest = pattern.split("/", 1)
            if where == "reference":
                bases = [os.path.join(SHARED, "reference")]
            elif where == "repo":  # samples kept in this repository (tests/parsers/data)
                bases = [ROOT]
            else:
                bases = []
                for sc in scenarios[:4]:  # the generator writes one format per kind
                    if where == "sample":
                        bases.append(first_sample(sc, "hosts"))
                    elif where == "switch":
                        bases.append(first_sample(sc, "switches"))
                    else:
                        bases.append(os.path.join(sc, "perftest"))
            for base in filter(None, bases):
                for path in sorted(glob.glob(os.path.join(base, rest)))[:3]:
                    with open(path, "rb") as f:
                        put(harness, f.read())


def small_bundle_members(scenario):
    """(kind, relative name, data) of a trimmed bundle: one host, one switch, two samples each."""
    members = []
    keep = []
    for kind in ("hosts", "switches"):
        machines = sorted(glob.glob(os.path.join(scenario, kind, "*")))[:1]
        for m in machines:
            for sample in sorted(os.listdir(m))[:2]:
                keep.append(os.path.join(m, sample))
    pt = sorted(glob.glob(os.path.join(scenario, "perftest", "*")))[:1]
    keep += pt
    if os.path.exists(os.path.join(scenario, "bundle.json")):
        keep.append(os.path.join(scenario, "bundle.json"))
    for top in keep:
        for dirpath, _, files in os.walk(top):
            for fn in sorted(files):
                full = os.path.join(dirpath, fn)
                rel = os.path.relpath(full, scenario)
                # Only a few counters per port: the shape matters, not the volume.
                if "/counters/" in rel or "/hw_counters/" in rel or "/statistics/" in rel:
                    if hashlib.sha1(rel.encode()).digest()[0] > 40:
                        continue
                with open(full, "rb") as f:
                    members.append(("file", rel, f.read()))
    return members


def encode_dir(members):
    out = io.BytesIO()
    for kind, name, data in members:
        code = {"file": 0, "dir": 1, "symlink": 2}[kind]
        n = name.encode()
        out.write(struct.pack("<BH", code, len(n)) + n + struct.pack("<I", len(data)) + data)
    return out.getvalue()


def encode_tar(members, compress):
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz" if compress else "w") as tar:
        for kind, name, data in members:
            info = tarfile.TarInfo(name)
            if kind == "symlink":
                info.type = tarfile.SYMTYPE
                info.linkname = data.decode()
                tar.addfile(info)
            else:
                info.size = len(data)
                tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def bundle_seeds(scenarios):
    for sc in scenarios[:3]:
        members = small_bundle_members(sc)
        put("fuzz_bundle_dir", encode_dir(members), limit=4 * MAX_SEED)
        put("fuzz_bundle_tar", encode_tar(members, compress=True), limit=4 * MAX_SEED)
    tiny = [("file", "hosts/n1/0/captured_at", b"1764662400.5\n"),
            ("file", "hosts/n1/0/sys/class/net/eth0/mtu", b"9000\n"),
            ("file", "hosts/n1/1/captured_at", b"1764662410\n"),
            ("file", "hosts/n1/1/sys/class/net/eth0/mtu", b"1500\n"),
            ("symlink", "hosts/n1/1/sys/class/net/eth1", "../../../../0/sys/class/net/eth0".encode()),
            ("symlink", "hosts/n2/0/sys", b"/sys"),
            ("file", "switches/s1/0/captured_at", b"1764662401\n"),
            ("file", "perftest/n1__n2/ib_write_bw_-d_mlx5_0_n2", b"RDMA_Write BW Test\n")]
    put("fuzz_bundle_dir", encode_dir(tiny))
    put("fuzz_bundle_tar", encode_tar(tiny, compress=False))
    put("fuzz_bundle_tar", encode_tar([("file", "../../etc/x", b"x"), ("file", "/abs", b"y")] + tiny, False))


def main():
    shutil.rmtree(OUT, ignore_errors=True)
    scenarios = scenario_dirs()
    if not scenarios:
        sys.exit("no extracted scenarios under /tmp/sc (tar xzf each shared/scenarios/*.tar.gz there)")
    parser_seeds(scenarios)
    bundle_seeds(scenarios)


if __name__ == "__main__":
    main()
