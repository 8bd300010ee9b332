import { dictionary } from '@zxcvbn-ts/language-common';

/** How many of the most common passwords are refused outright (SECURITY.md: the most common 10k). */
export const COMMON_PASSWORD_LIST_SIZE = 10_000;

/**
 * The 10,000 most common passwords: the head of the frequency-ranked breach list that ships with
 * `@zxcvbn-ts/language-common` (MIT), lower-cased, plus a few hand-picked entries of our own (below).
 * `passwords.ts` widens the check with the patterns that dominate such lists (repeats, keyboard
 * runs, listed word + digits).
 */
const RANKED: readonly string[] = (dictionary['passwords-common'] as string[]).slice(0, COMMON_PASSWORD_LIST_SIZE);

export const COMMON_PASSWORDS: ReadonlySet<string> = new Set([
  ...RANKED.map((p) => p.toLowerCase()),
  '123456', 'password', '12345678', 'qwerty', '123456789', '12345', '1234', '111111', '1234567', 'dragon',
  '123123', 'baseball', 'abc123', 'football', 'monkey', 'letmein', '696969', 'shadow', 'master', '666666',
  'qwertyuiop', '123321', 'mustang', '1234567890', 'michael', '654321', 'superman', '1qaz2wsx', '7777777', '121212',
  '000000', 'qazwsx', '123qwe', 'killer', 'trustno1', 'jordan', 'jennifer', 'zxcvbnm', 'asdfgh', 'hunter',
  'buster', 'soccer', 'harley', 'batman', 'andrew', 'tigger', 'sunshine', 'iloveyou', '2000', 'charlie',
  'robert', 'thomas', 'hockey', 'ranger', 'daniel', 'starwars', 'klaster', '112233', 'george', 'computer',
  'michelle', 'jessica', 'pepper', '1111', 'zxcvbn', '555555', '11111111', '131313', 'freedom', '777777',
  'pass', 'maggie', '159753', 'aaaaaa', 'ginger', 'princess', 'joshua', 'cheese', 'amanda', 'summer',
  'love', 'ashley', 'nicole', 'chelsea', 'biteme', 'matthew', 'access', 'yankees', '987654321', 'dallas',
  'austin', 'thunder', 'taylor', 'matrix', 'mobilemail', 'mom', 'monitor', 'monitoring', 'montana', 'moon',
  'moscow', 'welcome', 'welcome1', 'password1', 'password12', 'password123', 'passw0rd', 'p@ssw0rd', 'p@ssword', 'admin',
  'administrator', 'root', 'toor', 'changeme', 'default', 'guest', 'login', 'abc12345', 'qwerty123', 'qwerty1',
  '1q2w3e4r', '1q2w3e4r5t', '1q2w3e', '1qazxsw2', 'zaq12wsx', 'q1w2e3r4', 'q1w2e3r4t5', 'asdf1234', 'asdfasdf', 'asdfghjkl',
  'iloveyou1', 'princess1', 'football1', 'baseball1', 'monkey1', 'dragon1', 'sunshine1', 'master1', 'shadow1', 'letmein1',
  'whatever', 'secret', 'secret123', 'hello', 'hello123', 'hellohello', 'starwars1', 'superman1', 'batman1', 'pokemon',
  'naruto', 'minecraft', 'fortnite', 'roblox', 'liverpool', 'arsenal', 'chelsea1', 'barcelona', 'realmadrid', 'juventus',
  'manchester', 'united', 'football123', 'soccer1', 'hockey1', 'basketball', 'tennis', 'golf', 'america', 'canada',
  'england', 'london', 'paris', 'berlin', 'tokyo', 'flower', 'flowers', 'purple', 'orange', 'yellow',
  'silver', 'golden', 'diamond', 'blue123', 'red123', 'black', 'white', 'lovely', 'loveme', 'lover',
  'lovers', 'iloveu', 'iloveyou2', 'ilovegod', 'jesus', 'jesus1', 'christ', 'blessed', 'angel', 'angels',
  'angel1', 'heaven', 'qwertyu', 'qwerty12', 'qwerty1234', 'qwe123', 'asd123', 'zxc123', 'zxcvbnm1', '1234qwer',
  '12qwaszx', '123abc', 'abcd1234', 'abc123456', 'a123456', 'a1b2c3', 'a1b2c3d4', 'aa123456', '123456a', '123456aa',
  '1234abcd', '11111', '1111111', '111111111', '1111111111', '222222', '333333', '444444', '888888', '999999',
  '00000000', '12121212', '123654', '147258', '147258369', '159357', '1234554321', '123456789a', '1234567891', '12341234',
  '123123123', '456789', '789456', '789456123', '987654', '54321', '7654321', '0987654321', 'michael1', 'jennifer1',
  'jordan23', 'charlie1', 'thomas1', 'daniel1', 'robert1', 'william', 'andrea', 'anthony', 'joseph', 'joshua1',
  'david', 'samantha', 'sophie', 'olivia', 'emily', 'hannah', 'jasmine', 'jessica1', 'justin', 'kevin',
  'lauren', 'melissa', 'nicholas', 'patrick', 'rachel', 'richard', 'steven', 'victoria', 'internet', 'computer1',
  'google', 'facebook', 'linkedin', 'twitter', 'youtube', 'yahoo', 'hotmail', 'gmail', 'samsung', 'apple',
  'iphone', 'microsoft', 'windows', 'cookie', 'banana', 'chocolate', 'pizza', 'hamburger', 'coffee', 'tequila',
  'whiskey', 'beer', 'cheese1', 'monkey123', 'dragon123', 'master123', 'shadow123', 'letmein123', 'welcome123', 'admin123',
  'admin1234', 'root123', 'test', 'test123', 'test1234', 'testing', 'demo', 'demo123', 'user', 'user123',
  'guest123', 'temp', 'temp123', 'pass123', 'pass1234', 'password1234', 'passw0rd1', 'qazwsxedc', 'qweasd', 'qweasdzxc',
  'asdfqwer', 'zaq1xsw2', '1q2w3e4r5t6y', 'zxcasdqwe', 'poiuytrewq', 'lkjhgfdsa', 'mnbvcxz', 'superstar', 'rockstar', 'rockyou',
  'snoopy', 'tigger1', 'garfield', 'scooby', 'pokemon1', 'spiderman', 'ironman', 'hulk', 'wolverine', 'gandalf',
  'frodo', 'hobbit', 'matrix1', 'neo', 'trinity', 'mercedes', 'ferrari', 'porsche', 'corvette', 'mustang1',
  'harley1', 'yamaha', 'ducati', 'january', 'february', 'march', 'april', 'may', 'june', 'july',
  'august', 'september', 'october', 'november', 'december', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday',
  'saturday', 'sunday', 'summer1', 'winter', 'spring', 'autumn', 'fall', 'cowboys', 'steelers', 'packers',
  'eagles', 'patriots', 'lakers', 'yankees1', 'redsox', '6969', 'abcdef', 'abcdefg', 'abcdefgh',
]);
