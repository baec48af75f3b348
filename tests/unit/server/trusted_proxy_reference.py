#!/usr/bin/env python3
"""The reference for tests/unit/server/test_clients.c: for --trusted-proxy ranges and peer addresses,
whether the peer is inside the range, computed by Python's ipaddress module (apart from our C).

Prints one case a line, `range address 1|0`: the ranges and addresses are the edges of each range
(first and last address inside, the neighbours just outside), prefixes 0, 1, 7, 8, 9, 31, 32 (and 127,
128 for IPv6) and a fixed-seed sample of random ones; an IPv4-mapped IPv6 address (::ffff:a.b.c.d)
counts as its IPv4 address, as clients.h says. Ranges may have host bits set (10.1.2.3/8 is 10/8)."""
import ipaddress
import random


def inside(network, address):
    address = ipaddress.ip_address(address)
    if address.version == 6 and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.version == network.version and address in network


def edges(network):
    """The first and last addresses of the range and the ones just outside it."""
    top = 2 ** network.max_prefixlen - 1
    first, last = int(network.network_address), int(network.broadcast_address)
    numbers = [first, last, first + (last - first) // 2]
    numbers += [n for n in (first - 1, last + 1) if 0 <= n <= top]
    return [ipaddress.ip_address(n) if network.version == 4 else ipaddress.IPv6Address(n) for n in numbers]


def cases():
    rng = random.Random(20261125)
    ranges = []
    for prefix in (0, 1, 7, 8, 9, 16, 23, 24, 25, 31, 32):
        ranges.append(f"{ipaddress.IPv4Address(rng.getrandbits(32))}/{prefix}")
    for prefix in (0, 1, 7, 8, 9, 48, 63, 64, 65, 127, 128):
        ranges.append(f"{ipaddress.IPv6Address(rng.getrandbits(128))}/{prefix}")
    ranges += [f"{ipaddress.IPv4Address(rng.getrandbits(32))}/{rng.randint(0, 32)}" for _ in range(40)]
    ranges += [f"{ipaddress.IPv6Address(rng.getrandbits(128))}/{rng.randint(0, 128)}" for _ in range(40)]
    ranges += ["127.0.0.1", "::1", "10.0.0.0/8", "192.168.1.7"]  # a bare address is a range of one
    for text in ranges:
        network = ipaddress.ip_network(text, strict=False)
        addresses = edges(network)
        addresses += [ipaddress.IPv4Address(rng.getrandbits(32)) for _ in range(3)]
        addresses += [ipaddress.IPv6Address(rng.getrandbits(128)) for _ in range(3)]
        if network.version == 4:  # the same addresses written as IPv4-mapped IPv6
            addresses += [ipaddress.IPv6Address("::ffff:" + str(a)) for a in edges(network)]
        for address in addresses:
            yield text, str(address), inside(network, address)


if __name__ == "__main__":
    for network, address, verdict in cases():
        print(network, address, int(verdict))
