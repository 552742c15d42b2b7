package dev.hotspare.pool.runtime;

import org.slf4j.ILoggerFactory;
import org.slf4j.IMarkerFactory;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.BasicMDCAdapter;
import org.slf4j.helpers.BasicMarkerFactory;
import org.slf4j.helpers.LegacyAbstractLogger;
import org.slf4j.helpers.MessageFormatter;
import org.slf4j.spi.MDCAdapter;
import org.slf4j.spi.SLF4JServiceProvider;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Core's tests log through this SLF4J provider (registered in {@code META-INF/services}), which keeps every event
 * at INFO and above in memory, so a test can assert what the runtime logged — a warning given once, no exception
 * after close. Tests run in one JVM, so assertions filter by something unique to the test (a pool name).
 */
public final class CapturedLogs implements SLF4JServiceProvider {

    /** One logged event. */
    public record Event(Level level, String logger, String message, String throwable) {
        /**
         * Whether the message or the throwable mentions {@code text}.
         *
         * @param text what to look for
         * @return whether it is there
         */
        public boolean mentions(String text) {
            return message.contains(text) || (throwable != null && throwable.contains(text));
        }
    }

    private static final List<Event> EVENTS = new CopyOnWriteArrayList<>();

    private final ConcurrentHashMap<String, Logger> loggers = new ConcurrentHashMap<>();
    private final ILoggerFactory factory = name -> loggers.computeIfAbsent(name, Logger::new);
    private final IMarkerFactory markers = new BasicMarkerFactory();
    private final MDCAdapter mdc = new BasicMDCAdapter();

    /**
     * Every event so far whose message or throwable mentions {@code text}.
     *
     * @param text e.g. a pool name
     * @return the events, oldest first
     */
    public static List<Event> mentioning(String text) {
        return EVENTS.stream().filter(e -> e.mentions(text)).toList();
    }

    @Override
    public ILoggerFactory getLoggerFactory() {
        return factory;
    }

    @Override
    public IMarkerFactory getMarkerFactory() {
        return markers;
    }

    @Override
    public MDCAdapter getMDCAdapter() {
        return mdc;
    }

    @Override
    public String getRequestedApiVersion() {
        return "2.0.99";
    }

    @Override
    public void initialize() {
    }

    /** Records INFO and above. */
    private static final class Logger extends LegacyAbstractLogger {
        Logger(String name) {
            this.name = name;
        }

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String messagePattern, Object[] arguments,
                                                   Throwable throwable) {
            String message = MessageFormatter.basicArrayFormat(messagePattern, arguments);
            EVENTS.add(new Event(level, name, message, throwable == null ? null : throwable.toString()));
        }

        @Override
        public boolean isTraceEnabled() {
            return false;
        }

        @Override
        public boolean isDebugEnabled() {
            return false;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }
    }
}
