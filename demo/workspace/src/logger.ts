export type Level = 'debug' | 'info' | 'warn' | 'error';

const ORDER: Record<Level, number> = { debug: 0, info: 1, warn: 2, error: 3 };

export function createLogger(minimum: Level): (level: Level, message: string) => void {
	return (level, message) => {
		if (ORDER[level] < ORDER[minimum]) {
			return;
		}
		const time = new Date().toISOString();
		console.log(`${time} [${level}] ${message}`);
	};
}
