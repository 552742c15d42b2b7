package dev.hotspare.ownership;

import dev.hotspare.validation.Problem;
import dev.hotspare.validation.ValidationException;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Divides keys (scheduler or pool names) between the live members of a group of instances: rendezvous
 * (highest-random-weight) hashing with bounded loads.
 *
 * <p>Each key ranks every member by a hash of (member, key) and goes to the highest-ranked member that still has
 * room; a member has room for {@code max(ceil(K/N), floor(1.25 × K/N))} keys. Keys are placed in the order of
 * their own hash, so the result is a pure function of the set of keys and the set of members: every instance
 * that reads the same live members from the store computes the same owners, with no coordination beyond the
 * membership leases.
 *
 * <p>▲ Plain rendezvous hashing is a function of (key, members) alone, but its loads are binomial: with 100 keys
 * per member on 8 members one member owns more than 1.25× the mean about once in 30 key sets. The bound makes
 * "no member owns more than 1.25× the mean" hold for every key set, at the price of a few more keys moving when
 * a member joins or leaves (measured in {@code OwnershipTest}: about 1/N of the keys, as for plain rendezvous).
 */
public final class Ownership {

    /** No member owns more than this multiple of the mean number of keys per member (when that mean is ≥ 4). */
    public static final double MAX_LOAD_FACTOR = 1.25;

    private Ownership() {
    }

    /**
     * The owner of every key among {@code liveMembers}.
     *
     * @param keys        the keys to divide; duplicates count once
     * @param liveMembers the instances alive now; when empty, no key has an owner
     * @return one owner per key, in key order
     * @throws ValidationException naming {@code keys} or {@code liveMembers} when either holds a null or blank name
     */
    public static Assignment assign(Collection<String> keys, Collection<String> liveMembers) {
        SortedSet<String> members = requireNames("liveMembers", liveMembers);
        SortedSet<String> keySet = requireNames("keys", keys);
        Map<String, String> owners = new TreeMap<>();
        if (members.isEmpty() || keySet.isEmpty()) {
            return new Assignment(owners, members);
        }
        int n = members.size();
        int k = keySet.size();
        int capacity = Math.max((k + n - 1) / n, (int) Math.floor(MAX_LOAD_FACTOR * k / n));
        List<String> memberList = new ArrayList<>(members);
        long[] memberHashes = new long[n];
        for (int i = 0; i < n; i++) {
            memberHashes[i] = hash(memberList.get(i));
        }
        List<String> ordered = new ArrayList<>(keySet);
        Map<String, Long> keyHashes = new HashMap<>();
        for (String key : ordered) {
            keyHashes.put(key, hash(key));
        }
        ordered.sort(Comparator.<String>comparingLong(keyHashes::get).thenComparing(Comparator.naturalOrder()));
        int[] load = new int[n];
        Integer[] rank = new Integer[n];
        for (String key : ordered) {
            long keyHash = keyHashes.get(key);
            long[] weights = new long[n];
            for (int i = 0; i < n; i++) {
                weights[i] = weight(memberHashes[i], keyHash);
                rank[i] = i;
            }
            java.util.Arrays.sort(rank, (a, b) -> weights[a] != weights[b]
                    ? Long.compareUnsigned(weights[b], weights[a]) : memberList.get(a).compareTo(memberList.get(b)));
            for (Integer i : rank) {
                if (load[i] < capacity) {
                    load[i]++;
                    owners.put(key, memberList.get(i));
                    break;
                }
            }
        }
        return new Assignment(owners, members);
    }

    private static SortedSet<String> requireNames(String field, Collection<String> names) {
        if (names == null) {
            throw new ValidationException(Problem.of(field, Problem.MISSING, "must be a collection of names"));
        }
        SortedSet<String> set = new TreeSet<>();
        for (String name : names) {
            if (name == null || name.isBlank()) {
                throw new ValidationException(Problem.of(field, name == null ? Problem.MISSING : name, "must not hold a blank name"));
            }
            set.add(name);
        }
        return set;
    }

    // FNV-1a over UTF-8, then murmur3's finaliser: stable across JVMs and releases (String.hashCode is only 32 bits).
    static long hash(String text) {
        long h = 0xcbf29ce484222325L;
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            h ^= b & 0xff;
            h *= 0x100000001b3L;
        }
        return mix(h);
    }

    static long weight(long memberHash, long keyHash) {
        return mix(memberHash ^ (keyHash * 0x9E3779B97F4A7C15L));
    }

    private static long mix(long z) {
        z ^= z >>> 33;
        z *= 0xff51afd7ed558ccdL;
        z ^= z >>> 33;
        z *= 0xc4ceb9fe1a85ec53L;
        z ^= z >>> 33;
        return z;
    }

    /**
     * Who owns what, as {@link #assign} decided it.
     *
     * @param ownerByKey  the owner of every key, in key order
     * @param liveMembers the members the keys were divided between, in name order
     */
    public record Assignment(Map<String, String> ownerByKey, SortedSet<String> liveMembers) {

        public Assignment {
            ownerByKey = java.util.Collections.unmodifiableMap(new TreeMap<>(ownerByKey));
            liveMembers = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(liveMembers));
        }

        /**
         * The member that owns {@code key}.
         *
         * @param key a scheduler or pool name
         * @return its owner, or empty when the key was not divided or no member is alive
         */
        public Optional<String> ownerOf(String key) {
            return Optional.ofNullable(ownerByKey.get(key));
        }

        /**
         * The keys each live member owns, members in name order (a member that owns nothing maps to an empty list).
         *
         * @return the keys of every live member
         */
        public Map<String, List<String>> keysByMember() {
            Map<String, List<String>> byMember = new LinkedHashMap<>();
            for (String member : liveMembers) {
                byMember.put(member, new ArrayList<>());
            }
            ownerByKey.forEach((key, owner) -> byMember.get(owner).add(key));
            byMember.replaceAll((member, owned) -> List.copyOf(owned));
            return byMember;
        }
    }
}
