import { describe, expect, it } from 'vitest';
import { urlSyntaxProblem } from '../../src/config/url-syntax-problem.js';

describe('urlSyntaxProblem', () => {
  it('says why the URL parser refuses a text, where it says only "Invalid URL"', () => {
    const cases: Record<string, string> = {
      'http://collector:43180000': 'port 43180000 is out of range: a port is 1-65535',
      'not a url': 'it has no scheme (such as http://)',
      'http:collector': 'it has no "//" and host after its scheme',
      'http://:4318': 'it has no host after "//"',
      'http://collector host:4318': 'its host "collector host" holds a space, which no host name may hold',
      'http://user:pw@a<b:1/x': 'its host "a<b" holds "<", which no host name may hold',
      'http://[::1:4318': 'its IPv6 address "[::1:4318" has no closing "]"',
      'http://collector:43l8': 'its port "43l8" is not a number',
      'http://999.1.1.1:3': 'its host "999.1.1.1" is not a valid host name or IP address',
    };
    for (const [text, why] of Object.entries(cases)) expect(urlSyntaxProblem(text), text).toBe(why);
  });
});
