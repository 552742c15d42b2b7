package dev.hotspare.redis.internal;

import dev.hotspare.testkit.servers.TestRedis;
import io.lettuce.core.api.StatefulRedisConnection;
import io.netty.channel.DefaultEventLoop;
import io.netty.util.concurrent.DefaultEventExecutor;
import io.netty.util.concurrent.EventExecutor;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The batcher's check for an event-loop thread: true on a Netty event loop and on Lettuce's I/O threads (where
 * channel writes happen inline), false on a Netty executor that is not an event loop (what Lettuce's computation
 * threads run) and on any other thread.
 */
class IoThreadsTest {

    @Test
    void nettyEventLoopsCountAndOtherExecutorsDoNot() throws Exception {
        assertThat(IoThreads.current()).as("the test's own thread").isFalse();
        assertThat(askFrom(new DefaultEventLoop())).as("a Netty event loop").isTrue();
        assertThat(askFrom(new DefaultEventExecutor())).as("a Netty executor that is not an event loop").isFalse();
    }

    @Test
    void aCallbackOfALettuceCommandRunsOnAnIoThread() {
        try (TestRedis.Client client = TestRedis.Client.create(TestRedis.uri())) {
            StatefulRedisConnection<String, String> connection = client.connect();
            // Not flushed, the command cannot be answered before the callback is attached: the reply, and so the
            // callback, comes on the connection's I/O thread.
            connection.setAutoFlushCommands(false);
            CompletableFuture<Boolean> seen = connection.async().ping().toCompletableFuture().thenApply(pong -> IoThreads.current());
            connection.flushCommands();
            assertThat(seen.join()).isTrue();
        }
    }

    private static boolean askFrom(EventExecutor executor) throws Exception {
        try {
            // Twice: the second answer is the one the thread cached.
            executor.submit(IoThreads::current).get();
            return executor.submit(IoThreads::current).get();
        } finally {
            executor.shutdownGracefully(0, 0, TimeUnit.SECONDS);
        }
    }
}
