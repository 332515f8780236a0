/** The app's Redis connection, when `REDIS_URL` is set. */
import { type AppContext, service } from '../context.js';
import { connectRedis, type RedisHandle } from '../redis.js';

export function getRedis(ctx: AppContext): RedisHandle | undefined {
  return service(ctx, 'redis', () => {
    if (!ctx.config.redisUrl) return undefined;
    const redis = connectRedis(ctx.config.redisUrl, ctx.logger);
    ctx.closers.push(() => redis.close());
    return redis;
  });
}
