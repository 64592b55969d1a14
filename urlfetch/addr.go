package urlfetch

import (
	"fmt"
	"net/netip"
)

// blockedPrefixes are the address ranges that are not the public internet:
// a fetch must never reach them. The list follows the IANA special-purpose
// address registries; where a range holds a few globally reachable
// addresses (2001::/23) the whole range is refused all the same.
var blockedPrefixes = func() []netip.Prefix {
	var ps []netip.Prefix
	for _, s := range []string{
		"0.0.0.0/8",       // "this network"
		"10.0.0.0/8",      // private
		"100.64.0.0/10",   // shared address space (CGNAT)
		"127.0.0.0/8",     // loopback
		"169.254.0.0/16",  // link-local, cloud metadata at 169.254.169.254
		"172.16.0.0/12",   // private
		"192.0.0.0/24",    // IETF protocol assignments
		"192.0.2.0/24",    // documentation (TEST-NET-1)
		"192.88.99.0/24",  // 6to4 relay anycast
		"192.168.0.0/16",  // private
		"198.18.0.0/15",   // benchmarking
		"198.51.100.0/24", // documentation (TEST-NET-2)
		"203.0.113.0/24",  // documentation (TEST-NET-3)
		"224.0.0.0/4",     // multicast
		"240.0.0.0/4",     // reserved, and the broadcast address
		"::/96",           // unspecified, loopback, IPv4-compatible
		"::ffff:0:0/96",   // IPv4-mapped (checked again unmapped)
		"64:ff9b::/96",    // NAT64
		"64:ff9b:1::/48",  // local-use NAT64
		"100::/64",        // discard-only
		"2001::/23",       // IETF protocol assignments, Teredo
		"2001:db8::/32",   // documentation
		"2002::/16",       // 6to4
		"3fff::/20",       // documentation
		"5f00::/16",       // SRv6 segment identifiers
		"fc00::/7",        // unique local
		"fe80::/10",       // link-local
		"fec0::/10",       // site-local (deprecated)
		"ff00::/8",        // multicast
	} {
		ps = append(ps, netip.MustParsePrefix(s))
	}
	return ps
}()

// checkAddr refuses any address that is not a public unicast address.
// With allowLoopback (tests only), 127.0.0.0/8 and ::1 are let through.
func checkAddr(a netip.Addr, allowLoopback bool) error {
	if !a.IsValid() {
		return fmt.Errorf("invalid address: %w", ErrBlocked)
	}
	if a.Zone() != "" {
		return fmt.Errorf("%s: scoped address: %w", a, ErrBlocked)
	}
	u := a.Unmap()
	if allowLoopback && u.IsLoopback() {
		return nil
	}
	switch {
	case u.IsLoopback():
		return fmt.Errorf("%s is a loopback address: %w", a, ErrBlocked)
	case u.IsPrivate():
		return fmt.Errorf("%s is a private address: %w", a, ErrBlocked)
	case u.IsLinkLocalUnicast(), u.IsLinkLocalMulticast():
		return fmt.Errorf("%s is a link-local address: %w", a, ErrBlocked)
	case u.IsMulticast(), u.IsInterfaceLocalMulticast():
		return fmt.Errorf("%s is a multicast address: %w", a, ErrBlocked)
	case u.IsUnspecified():
		return fmt.Errorf("%s is the unspecified address: %w", a, ErrBlocked)
	}
	for _, p := range blockedPrefixes {
		if p.Contains(u) {
			return fmt.Errorf("%s is in the special-purpose range %s: %w", a, p, ErrBlocked)
		}
	}
	if !u.IsGlobalUnicast() {
		return fmt.Errorf("%s is not a global unicast address: %w", a, ErrBlocked)
	}
	return nil
}
