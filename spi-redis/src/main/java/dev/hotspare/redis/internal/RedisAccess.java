package dev.hotspare.redis.internal;

import dev.hotspare.spi.StoreUnavailableException;
import io.lettuce.core.RedisBusyException;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.RedisReadOnlyException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * What every Redis store shares: the caller's connection (standalone, Sentinel/master-replica or Cluster),
 * scripts called by SHA with a reload on {@code NOSCRIPT}, and the translation of Lettuce's failures into
 * {@link StoreUnavailableException} (availability) versus {@link IllegalStateException} (a reply that can only
 * mean a bug or a foreign value under our keys).
 *
 * <p>Everything goes through the asynchronous API so several commands can share one round trip; synchronous
 * store methods wait at most the connection's own command timeout (plus a small margin for the reload).
 */
public final class RedisAccess {

    private final RedisClusterAsyncCommands<String, String> commands;
    private final StatefulConnection<String, String> connection;
    private final String storeName;

    /**
     * Access through {@code connection} for the store named {@code storeName} (in exceptions).
     *
     * @throws IllegalArgumentException if the connection is neither a standalone nor a Cluster connection
     */
    public RedisAccess(StatefulConnection<String, String> connection, String storeName) {
        this.connection = Objects.requireNonNull(connection, "connection");
        this.storeName = Objects.requireNonNull(storeName, "storeName");
        if (connection instanceof StatefulRedisConnection<String, String> standalone) {
            this.commands = standalone.async();
        } else if (connection instanceof StatefulRedisClusterConnection<String, String> cluster) {
            this.commands = cluster.async();
        } else {
            throw new IllegalArgumentException("connection: bad value '" + connection.getClass().getName()
                    + "': must be a StatefulRedisConnection (standalone, Sentinel, master/replica) or a StatefulRedisClusterConnection");
        }
    }

    /** Lettuce's computation threads (not its I/O threads), for work that must not run on an I/O thread. */
    public Executor executor() {
        return connection.getResources().eventExecutorGroup();
    }

    /** The asynchronous commands of the connection (standalone or Cluster). */
    public RedisClusterAsyncCommands<String, String> commands() {
        return commands;
    }

    /** The store's name, as exceptions give it. */
    public String storeName() {
        return storeName;
    }

    /** Runs {@code script} by SHA; on {@code NOSCRIPT} loads it and runs it again. */
    public <T> CompletableFuture<T> evalAsync(LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        CompletableFuture<T> first = commands.<T>evalsha(script.sha(), type, keys, args).toCompletableFuture();
        return first.exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                // The server lost its script cache (first use, restart, SCRIPT FLUSH, failover): EVAL both runs
                // the script and caches it, so the next EVALSHA finds it again.
                ? commands.<T>eval(script.body(), type, keys, args).toCompletableFuture()
                : CompletableFuture.failedFuture(failure));
    }

    /**
     * Runs {@code script} and waits for its reply. Waits on Lettuce's own future (no dependent stage on the
     * hot path) and reloads the script only when the server says {@code NOSCRIPT}.
     */
    public <T> T eval(String what, LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        return eval(what, "", script, type, keys, args);
    }

    /**
     * {@link #eval(String, LuaScript, ScriptOutputType, String[], String...)} for hot paths: the description
     * {@code verb + subject} is only built if the call fails.
     */
    public <T> T eval(String verb, String subject, LuaScript script, ScriptOutputType type, String[] keys, String... args) {
        CompletableFuture<T> first = commands.<T>evalsha(script.sha(), type, keys, args).toCompletableFuture();
        try {
            return await(verb, subject, first);
        } catch (IllegalStateException rejected) {
            if (rejected.getCause() instanceof RedisNoScriptException) {
                return await(verb, subject, commands.<T>eval(script.body(), type, keys, args));
            }
            throw rejected;
        }
    }

    /** Waits for {@code future} at most the connection's command timeout, translating failures. */
    public <T> T await(String what, CompletionStage<T> future) {
        return await(what, "", future);
    }

    private <T> T await(String verb, String subject, CompletionStage<T> future) {
        Duration timeout = connection.getTimeout();
        try {
            // An asynchronous NOSCRIPT reload costs a second command, hence twice the timeout.
            return future.toCompletableFuture().get(timeout.toNanos() * 2, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new StoreUnavailableException(storeName, verb + subject + ": interrupted while waiting for Redis", e);
        } catch (TimeoutException e) {
            future.toCompletableFuture().cancel(false);
            throw new StoreUnavailableException(storeName, verb + subject + ": no reply within " + timeout.multipliedBy(2), e);
        } catch (ExecutionException | CompletionException | CancellationException e) {
            throw translate(verb + subject, e);
        }
    }

    /** The exception a store throws for {@code failure} of {@code what}. */
    public RuntimeException translate(String what, Throwable failure) {
        Throwable cause = unwrap(failure);
        if (cause instanceof RedisLoadingException || cause instanceof RedisBusyException
                || cause instanceof RedisReadOnlyException) {
            return new StoreUnavailableException(storeName, what + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof RedisCommandExecutionException error) {
            String message = String.valueOf(error.getMessage());
            if (message.startsWith("MASTERDOWN") || message.startsWith("CLUSTERDOWN") || message.startsWith("TRYAGAIN")
                    || message.startsWith("LOADING") || message.startsWith("BUSY")) {
                return new StoreUnavailableException(storeName, what + ": " + message, error);
            }
            return new IllegalStateException(storeName + ": Redis rejected " + what + ": " + message, error);
        }
        if (cause instanceof RedisException || cause instanceof CancellationException || cause instanceof java.io.IOException) {
            // Connection refused or lost, command timeout, "Currently not connected", connection closed.
            return new StoreUnavailableException(storeName, what + ": " + cause.getMessage(), cause);
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        return new IllegalStateException(storeName + ": " + what + " failed", cause);
    }

    private static Throwable unwrap(Throwable failure) {
        Throwable t = failure;
        while ((t instanceof ExecutionException || t instanceof CompletionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }
}
