package dev.hotspare.pool.internal;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonProperty;

import dev.hotspare.pool.Claim;
import dev.hotspare.pool.Member;
import java.util.List;

/**
 * A pool's observed state as a document: its members and live claims. The input of {@code hotspare plan};
 * the schema is in {@code docs/cli.md}.
 *
 * @param members every member
 * @param claims  every live claim
 */
public record PoolState(List<Member> members, List<Claim> claims) {

    public PoolState {
        members = members == null ? List.of() : List.copyOf(members);
        claims = claims == null ? List.of() : List.copyOf(claims);
    }

    @JsonCreator
    static PoolState fromJson(@JsonProperty("members") List<Member> members, @JsonProperty("claims") List<Claim> claims) {
        return new PoolState(members, claims);
    }
}
